"""The gateway's browser face, server side, with the standard library's HTTP clients as the
peers (http.client, urllib: clients nobody here wrote), against a real stack on free ports
(every service on a manual clock, see glimpse_stack.py):

- `GET /` is the page, every `/web/...` file it references answers with its content type,
  an entity tag, `Cache-Control: no-cache` and 304 on `If-None-Match`; HEAD, 404, 405;
- `GET /v1/<resource>/<verb>?json=<URL-encoded JSON>` runs the method as POST would;
- `Accept: text/event-stream` turns a JSON call into server-sent events: the event log's
  stream (`/v1/events/follow`) delivers what an action logs, a unary method is one event,
  a failed call the `error` event.

No test asserts a time: a socket timeout only keeps a broken server from hanging the run.
"""
import html.parser
import http.client
import json
import urllib.error
import urllib.parse
import urllib.request

import pytest

from glimpse_stack import START_TIME, Stack

TIMEOUT = 60          # seconds a read may wait before the test fails (not a measurement)
TYPES = {"html": "text/html", "js": "text/javascript", "css": "text/css", "svg": "image/svg+xml",
         "png": "image/png", "json": "application/json", "ico": "image/x-icon"}


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    stack = Stack(tmp_path_factory.mktemp("web_server") / "stack")
    try:
        yield stack
    finally:
        codes = stack.stop()
        assert all(code == 0 for code in codes.values()), codes


@pytest.fixture()
def base(stack):
    return f"http://127.0.0.1:{stack.ports['gateway']}"


def _connection(stack):
    return http.client.HTTPConnection("127.0.0.1", stack.ports["gateway"], timeout=TIMEOUT)


def _get(stack, path, headers=None, method="GET", body=None):
    """One request on a connection of its own: (status, header fields, body)."""
    connection = _connection(stack)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def _query(message):
    return "json=" + urllib.parse.quote(json.dumps(message), safe="")


def _post(base, path, message):
    request = urllib.request.Request(base + path, data=json.dumps(message).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
        return json.loads(response.read() or b"{}")


class _References(html.parser.HTMLParser):
    """The local files a page loads: (tag, rel, URL) of every src and href."""

    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("src", "href"):
            if attrs.get(name):
                self.found.append((tag, attrs.get("rel", ""), attrs[name]))


def _page(stack):
    status, headers, body = _get(stack, "/")
    assert status == 200, body
    return headers, body.decode()


class _Events:
    """A text/event-stream response read line by line, as EventSource parses it (data and
    event fields; comments counted, not returned)."""

    def __init__(self, response):
        self.response = response
        self.comments = 0

    def next(self):
        """The next event as (type, data); None at the end of the stream."""
        kind, data = "message", []
        while True:
            line = self.response.readline()
            if not line:
                return None
            line = line.decode().rstrip("\r\n")
            if not line:
                if data:
                    return kind, "\n".join(data)
                kind = "message"
                continue
            if line.startswith(":"):
                self.comments += 1
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "data":
                data.append(value)
            elif field == "event":
                kind = value


def _event_stream(stack, path, headers=None):
    """Opens `path` asking for server-sent events; returns (connection, response)."""
    connection = _connection(stack)
    connection.request("GET", path, headers={"Accept": "text/event-stream", **(headers or {})})
    response = connection.getresponse()
    return connection, response


# Static files


def test_the_root_is_the_page(stack):
    headers, page = _page(stack)
    assert headers["content-type"].startswith("text/html"), headers
    assert "charset=utf-8" in headers["content-type"].lower()
    assert "<title>Glimpse" in page and 'id="home"' in page and 'id="lock"' in page
    assert headers["cache-control"] == "no-cache"
    assert headers["etag"].startswith('"') and headers["etag"].endswith('"'), headers["etag"]
    assert int(headers["content-length"]) == len(page.encode())


def test_every_file_the_page_references_is_served_with_its_type(stack):
    _, page = _page(stack)
    parser = _References()
    parser.feed(page)
    local = [(tag, rel, url) for tag, rel, url in parser.found if url.startswith("/web/")]
    assert any(tag == "script" for tag, _, _ in local) and any(rel == "stylesheet" for _, rel, _ in local), parser.found
    # Nothing else the page loads is local and outside /web/ (it would 404).
    others = [url for _, _, url in parser.found if not url.startswith(("/web/", "#", "http:", "https:", "data:"))]
    assert others == [], others
    tags = set()
    for tag, rel, url in local:
        status, headers, body = _get(stack, url)
        assert status == 200, (url, body[:200])
        assert body, url
        extension = urllib.parse.urlparse(url).path.rsplit(".", 1)[-1].lower()
        assert headers["content-type"].split(";")[0] == TYPES[extension], (url, headers["content-type"])
        if tag == "script":
            assert headers["content-type"].startswith("text/javascript"), url
        if rel == "stylesheet":
            assert headers["content-type"].startswith("text/css"), url
        assert headers["cache-control"] == "no-cache", url
        assert int(headers["content-length"]) == len(body)
        tags.add(headers["etag"])
    assert len(tags) == len({url for _, _, url in local}), "one tag per file"


def test_a_file_revalidates_to_304_with_its_tag(stack):
    _, headers, body = _get(stack, "/web/app.js")
    tag = headers["etag"]
    assert tag.startswith('"') and not tag.startswith("W/")
    assert _get(stack, "/web/app.js")[1]["etag"] == tag, "the same bytes, the same tag"

    status, again, rest = _get(stack, "/web/app.js", {"If-None-Match": tag})
    assert status == 304 and rest == b"", (status, rest[:100])
    assert again["etag"] == tag and again["cache-control"] == "no-cache"
    for header in (f'"nope", {tag}', "*", f"W/{tag}"):
        assert _get(stack, "/web/app.js", {"If-None-Match": header})[0] == 304, header
    status, _, fresh = _get(stack, "/web/app.js", {"If-None-Match": '"nope"'})
    assert status == 200 and fresh == body

    # urllib, as a browser revalidates: a 304 is an HTTPError without a body.
    request = urllib.request.Request(f"http://127.0.0.1:{stack.ports['gateway']}/", headers={"If-None-Match": "*"})
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(request, timeout=TIMEOUT)
    assert error.value.code == 304


def test_head_answers_the_length_without_the_body(stack):
    connection = _connection(stack)
    try:
        connection.request("HEAD", "/web/app.css")
        response = connection.getresponse()
        assert response.status == 200 and response.read() == b""
        length = int(response.headers["content-length"])
        assert response.headers["content-type"].startswith("text/css")
        # The same connection goes on: had a body been sent, this would read it instead.
        connection.request("GET", "/web/app.css")
        response = connection.getresponse()
        assert response.status == 200 and len(response.read()) == length
    finally:
        connection.close()


def test_unknown_files_are_404_and_other_methods_405(stack):
    for path in ("/web/nope.js", "/web/", "/web/../index.html"):
        status, headers, body = _get(stack, path)
        assert status == 404, path
        assert headers["content-type"] == "application/json"
        assert json.loads(body)["status"] == "NOT_FOUND"
    for method, path in (("POST", "/"), ("DELETE", "/web/app.js"), ("PUT", "/web/nope.js")):
        status, headers, body = _get(stack, path, method=method, body=b"{}")
        assert status == 405, (method, path)
        assert headers["allow"] == "GET, HEAD"
        assert json.loads(body)["status"] == "UNIMPLEMENTED"


def test_requests_on_one_kept_alive_connection(stack):
    connection = _connection(stack)
    try:
        sockets = set()
        answers = []
        for path in ("/", "/web/app.js", "/v1/clock/now?" + _query({}), "/web/nope", "/"):
            connection.request("GET", path)
            response = connection.getresponse()
            answers.append((response.status, response.read()))
            sockets.add(id(connection.sock))
        assert [status for status, _ in answers] == [200, 200, 200, 404, 200]
        assert answers[0][1] == answers[4][1]
        assert len(sockets) == 1, "the connection was kept"
    finally:
        connection.close()


# GET of the JSON methods


def test_get_with_the_json_parameter_runs_the_method(stack, base):
    with urllib.request.urlopen(f"{base}/v1/clock/now?{_query({})}", timeout=TIMEOUT) as response:
        assert response.status == 200
        assert response.headers["content-type"] == "application/json"
        now = json.loads(response.read())
    assert now["manual"] is True and "now" in now
    assert now == _post(base, "/v1/clock/now", {}), "GET and POST answer alike"
    # No parameter: the empty request.
    with urllib.request.urlopen(f"{base}/v1/clock/now", timeout=TIMEOUT) as response:
        assert json.loads(response.read())["manual"] is True
    # A request message with fields: the event log's page, filtered.
    with urllib.request.urlopen(f"{base}/v1/events/list?{_query({'kinds': ['no_such_kind'], 'limit': 5})}",
                                timeout=TIMEOUT) as response:
        assert json.loads(response.read()).get("events", []) == []


def test_get_refuses_bad_percent_encoding_and_bad_requests(stack, base):
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(f"{base}/v1/clock/now?json=%7B%zz", timeout=TIMEOUT)
    assert error.value.code == 400
    assert json.loads(error.value.read())["status"] == "INVALID_ARGUMENT"
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(f"{base}/v1/widgets/get?{_query({'placementId': '987654'})}", timeout=TIMEOUT)
    assert error.value.code == 404
    assert json.loads(error.value.read())["status"] == "NOT_FOUND"
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(f"{base}/v1/no/such_route?json=%7B%7D", timeout=TIMEOUT)
    assert error.value.code == 404


# Server-sent events


def test_the_event_log_streams_an_event_an_action_logs(stack, base):
    listed = _post(base, "/v1/events/list", {"limit": 10000})
    last = int(listed.get("lastSequence", "0"))
    connection, response = _event_stream(
        stack, "/v1/events/follow?" + _query({"afterSequence": str(last), "kinds": ["clock_moved"]}))
    try:
        # The head came before any event: the stream is open while nothing has happened yet.
        assert response.status == 200
        assert response.headers["content-type"] == "text/event-stream"
        assert response.headers["cache-control"] == "no-cache"
        moved = _post(base, "/v1/clock/advance", {"by": "60s"})
        assert moved["now"] != START_TIME
        events = _Events(response)
        kind, data = events.next()
        assert kind == "message"
        event = json.loads(data)
        assert event["kind"] == "clock_moved", event
        assert int(event["sequence"]) > last
        # A second action, a second event on the same stream.
        _post(base, "/v1/clock/advance", {"by": "60s"})
        kind, data = events.next()
        second = json.loads(data)
        assert second["kind"] == "clock_moved" and int(second["sequence"]) > int(event["sequence"])
    finally:
        connection.close()
    # The gateway goes on after the browser went away.
    assert "now" in _post(base, "/v1/clock/now", {})


def test_a_unary_method_is_one_event_then_the_end(stack):
    connection, response = _event_stream(stack, "/v1/clock/now?" + _query({}))
    try:
        assert response.status == 200 and response.headers["content-type"] == "text/event-stream"
        body = response.read().decode()     # the whole response: it ends after its event
        assert body.startswith("data: {") and body.endswith("}\n\n") and body.count("\n\n") == 1, body
        assert json.loads(body[len("data: "):])["manual"] is True
    finally:
        connection.close()


def test_a_failed_call_is_the_error_event(stack):
    # A unary method the gateway refuses: NOT_FOUND.
    connection, response = _event_stream(stack, "/v1/widgets/get?" + _query({"placementId": "987654"}))
    try:
        assert response.status == 200 and response.headers["content-type"] == "text/event-stream"
        events = _Events(response)
        kind, data = events.next()
        assert kind == "error"
        error = json.loads(data)
        assert error["code"] == 5 and error["status"] == "NOT_FOUND" and error["message"], error
        assert events.next() is None, "the stream ends after the error"
    finally:
        connection.close()
    # The stream of the event log with a request that is not its message: INVALID_ARGUMENT.
    connection, response = _event_stream(stack, "/v1/events/follow?" + _query({"afterSequence": "not a number"}))
    try:
        events = _Events(response)
        kind, data = events.next()
        assert kind == "error"
        error = json.loads(data)
        assert error["code"] == 3 and error["status"] == "INVALID_ARGUMENT", error
        assert events.next() is None
    finally:
        connection.close()



def test_an_open_event_stream_ends_when_the_gateway_shuts_down(tmp_path):
    """A browser tab holds `/v1/events/follow` open for as long as it lives; SIGTERM must end
    that stream and let the gateway exit cleanly, not hold it until the 30 s grace period
    is over and the harness kills it (exit -9)."""
    own = Stack(tmp_path / "stack")
    try:
        connection, response = _event_stream(own, "/v1/events/follow?" + _query({"kinds": ["clock_moved"]}))
        assert response.status == 200
        gateway = own.processes.pop("gateway")
        assert gateway.stop() == 0          # SIGTERM; SIGKILL (-9) only after 10 s
        body = response.read()
        assert body == b"", body            # the stream ended: nothing more, no error event
        connection.close()
    finally:
        codes = own.stop()
        assert all(code == 0 for code in codes.values()), codes
