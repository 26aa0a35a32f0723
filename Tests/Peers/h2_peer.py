"""A real HTTP/2 client for the HTTP2Server tests (Tests/HTTP2ServerTests), run by them.

It speaks HTTP/2 with the `h2` library over a plain socket, or over Python's `ssl` with
or without ALPN (`--no-alpn`: `set_alpn_protocols` is never called, as aioapns does), or
uses `httpx` (HTTP/2 over TLS, ALPN h2). Each scenario prints one JSON object on standard
output; the Swift test checks it. Not a pytest module: the server under test is started
by the Swift tests.
"""
import argparse
import json
import socket
import ssl
import sys

import h2.config
import h2.connection
import h2.events
from h2.connection import ConnectionInputs, ConnectionState

TIMEOUT = 60  # a server that stops answering fails the scenario instead of hanging it


class Stream:
    def __init__(self):
        self.status = None
        self.headers = []
        self.body = b""
        self.ended = False
        self.reset = None

    def result(self):
        return {"status": self.status, "headers": self.headers, "body": self.body.decode("utf-8", "replace"),
                "ended": self.ended, "reset": self.reset}


class Client:
    """One HTTP/2 connection: send requests, pump events, keep what each stream got."""

    def __init__(self, args, validate=True):
        sock = socket.create_connection((args.host, args.port), timeout=TIMEOUT)
        self.alpn = None
        if args.tls:
            context = ssl.create_default_context(cafile=args.ca)
            if not args.no_alpn:
                context.set_alpn_protocols(["h2"])
            sock = context.wrap_socket(sock, server_hostname=args.server_name)
            self.alpn = sock.selected_alpn_protocol()
        self.sock = sock
        config = h2.config.H2Configuration(client_side=True, header_encoding="utf-8",
                                           validate_outbound_headers=validate, normalize_outbound_headers=validate)
        self.conn = h2.connection.H2Connection(config=config)
        self.conn.initiate_connection()
        self.streams = {}
        self.pending = {}  # stream id -> body bytes not yet sent (flow control)
        self.events = []   # what happened, in order: for ordering checks
        self.goaway = None
        self.closed = False
        self.pings = 0
        self.settings_received = False
        self.flush()

    def flush(self):
        data = self.conn.data_to_send()
        if data:
            self.sock.sendall(data)

    def request(self, method, path, headers=(), body=b"", content_length=True, authority="localhost"):
        stream_id = self.conn.get_next_available_stream_id()
        fields = [(":method", method), (":path", path), (":scheme", "https" if isinstance(self.sock, ssl.SSLSocket) else "http"),
                  (":authority", authority)] + list(headers)
        if body and content_length:
            fields.append(("content-length", str(len(body))))
        self.streams[stream_id] = Stream()
        self.conn.send_headers(stream_id, fields, end_stream=not body)
        if body:
            self.pending[stream_id] = body
            self.send_pending()
        self.flush()
        return stream_id

    def send_pending(self):
        for stream_id, body in list(self.pending.items()):
            while body:
                allowed = min(self.conn.local_flow_control_window(stream_id), self.conn.max_outbound_frame_size, len(body))
                if allowed <= 0:
                    break
                self.conn.send_data(stream_id, body[:allowed], end_stream=allowed == len(body))
                body = body[allowed:]
            if body:
                self.pending[stream_id] = body
            else:
                del self.pending[stream_id]

    def unsent(self):
        return sum(len(body) for body in self.pending.values())

    def pump_once(self):
        data = self.sock.recv(65536)
        if not data:
            self.closed = True
            self.events.append(["closed"])
            return
        for event in self.conn.receive_data(data):
            self.on_event(event)
        self.send_pending()
        self.flush()

    def on_event(self, event):
        if isinstance(event, h2.events.ResponseReceived):
            stream = self.streams[event.stream_id]
            for name, value in event.headers:
                if name == ":status":
                    stream.status = int(value)
                else:
                    stream.headers.append([name, value])
            self.events.append(["response", event.stream_id, stream.status])
        elif isinstance(event, h2.events.DataReceived):
            self.streams[event.stream_id].body += event.data
            self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
        elif isinstance(event, h2.events.StreamEnded):
            self.streams[event.stream_id].ended = True
            self.events.append(["ended", event.stream_id])
        elif isinstance(event, h2.events.StreamReset):
            if event.stream_id in self.streams:
                self.streams[event.stream_id].reset = int(event.error_code)
            self.pending.pop(event.stream_id, None)
            self.events.append(["reset", event.stream_id, int(event.error_code)])
        elif isinstance(event, h2.events.ConnectionTerminated):
            self.goaway = {"last_stream_id": event.last_stream_id, "error_code": int(event.error_code),
                           "debug": (event.additional_data or b"").decode("utf-8", "replace")}
            self.events.append(["goaway", event.last_stream_id])
        elif isinstance(event, h2.events.PingAckReceived):
            self.pings += 1
        elif isinstance(event, h2.events.RemoteSettingsChanged):
            self.settings_received = True

    def pump_until(self, done):
        while not done() and not self.closed:
            self.pump_once()
        if not done():
            raise SystemExit(f"connection closed before the scenario was done: {self.events}")

    def finished(self, stream_id):
        stream = self.streams[stream_id]
        return stream.ended or stream.reset is not None

    def ping_and_wait(self):
        """A PING sent after everything before it: its ACK comes after all the server
        sent in answer to those frames."""
        wanted = self.pings + 1
        self.conn.ping(b"glimpse!")
        self.flush()
        self.pump_until(lambda: self.pings >= wanted)

    def keep_reading_after_goaway(self):
        """h2 stops taking frames once a GOAWAY arrives; RFC 9113 §6.8 has the streams up
        to its last-stream-id go on. Let this connection read (and acknowledge) on."""
        transitions = dict(self.conn.state_machine._transitions)
        for input_ in (ConnectionInputs.RECV_HEADERS, ConnectionInputs.RECV_DATA, ConnectionInputs.RECV_WINDOW_UPDATE,
                       ConnectionInputs.RECV_PING, ConnectionInputs.RECV_SETTINGS, ConnectionInputs.RECV_RST_STREAM,
                       ConnectionInputs.SEND_WINDOW_UPDATE, ConnectionInputs.SEND_PING, ConnectionInputs.SEND_SETTINGS):
            transitions[(ConnectionState.CLOSED, input_)] = (None, ConnectionState.CLOSED)
        self.conn.state_machine._transitions = transitions

    def close(self):
        self.sock.close()


def scenario_request(args):
    client = Client(args)
    headers = [tuple(h.split(":", 1)) for h in args.header]
    body = args.body.encode() if args.body is not None else b"x" * args.body_size
    stream_id = client.request(args.method, args.path, headers, body, content_length=not args.no_content_length)
    client.pump_until(lambda: client.finished(stream_id))
    result = client.streams[stream_id].result()
    result["alpn"] = client.alpn
    client.close()
    return result


def scenario_too_large_then_ok(args):
    """A body past the server's limit, without content-length (so it is found out while
    it arrives), then an ordinary request on the same connection."""
    client = Client(args)
    first = client.request("POST", args.path, body=b"y" * args.body_size, content_length=False)
    client.pump_until(lambda: client.finished(first) and client.streams[first].status is not None)
    second = client.request("POST", args.path, body=b'{"aps":{}}')
    client.pump_until(lambda: client.finished(second))
    result = {"first": client.streams[first].result(), "second": client.streams[second].result()}
    client.close()
    return result


def scenario_concurrent(args):
    """`count` streams open at once on one connection."""
    client = Client(args)
    client.pump_until(lambda: client.settings_received)
    ids = [client.request("GET", args.path) for _ in range(args.count)]
    opened_together = client.conn.open_outbound_streams
    client.pump_until(lambda: all(client.finished(i) for i in ids))
    statuses = [client.streams[i].status for i in ids]
    client.close()
    return {"statuses": statuses, "opened_together": opened_together}


def scenario_goaway(args):
    """A request answered with GOAWAY: the whole answer comes, then the GOAWAY, then the
    connection closes. (One stream only: h2 itself stops reading a connection's frames
    once a GOAWAY arrives, so it cannot see streams still open finish.)"""
    client = Client(args)
    stream_id = client.request("POST", args.path, body=b'{"aps":{}}')
    client.pump_until(lambda: client.closed)
    return {"stream": stream_id, "result": client.streams[stream_id].result(), "goaway": client.goaway,
            "events": client.events}


def scenario_goaway_in_flight(args):
    """A stream left waiting (`release_path` on another connection lets it go), then a
    request answered with GOAWAY. The waiting stream is released only once the GOAWAY has
    arrived, and must still be answered on this connection, which closes after it."""
    client = Client(args)
    client.keep_reading_after_goaway()
    waiting = client.request("GET", args.path)
    client.pump_until(lambda: client.settings_received)
    fault = client.request("POST", args.fault_path, body=b'{"aps":{}}')
    client.pump_until(lambda: client.goaway is not None)
    releaser = Client(args)
    release = releaser.request("GET", args.release_path)
    releaser.pump_until(lambda: releaser.finished(release))
    releaser.close()
    client.pump_until(lambda: client.closed)
    return {"waiting": client.streams[waiting].result(), "waiting_stream": waiting,
            "fault": client.streams[fault].result(), "fault_stream": fault,
            "goaway": client.goaway, "events": client.events}


def scenario_invalid_headers(args):
    """Header fields HTTP/2 forbids, each on its own stream of one connection, then an
    ordinary request on that connection."""
    client = Client(args, validate=False)
    upper = client.request("GET", args.path, [("X-Upper", "1")])
    client.pump_until(lambda: client.finished(upper))
    connection_specific = client.request("GET", args.path, [("connection", "keep-alive")])
    client.pump_until(lambda: client.finished(connection_specific))
    latin1 = client.request("GET", args.path, [(b"x-latin1", b"caf\xe9")])
    client.pump_until(lambda: client.finished(latin1))
    ok = client.request("GET", args.path)
    client.pump_until(lambda: client.finished(ok))
    result = {name: client.streams[i].result() for name, i in
              [("upper", upper), ("connection_specific", connection_specific), ("latin1", latin1), ("ok", ok)]}
    client.close()
    return result


def scenario_budget(args):
    """`count` bodies of `body_size` to a path whose handler holds them: the server may
    take no more than its receive budget while they are held. Then a release request
    (headers only, not flow-controlled) lets the handlers answer, and the rest arrives."""
    client = Client(args)
    client.pump_until(lambda: client.settings_received)
    ids = [client.request("POST", args.path, body=b"b" * args.body_size) for _ in range(args.count)]
    # Two PINGs: once the second is answered, any window credit the server gave for the
    # bytes sent before the first has reached us.
    client.ping_and_wait()
    client.ping_and_wait()
    held = {"connection_window": client.conn.outbound_flow_control_window, "unsent": client.unsent(),
            "answered": sum(1 for i in ids if client.streams[i].status is not None)}
    release = client.request("GET", args.release_path)
    client.pump_until(lambda: all(client.finished(i) for i in ids + [release]))
    statuses = [client.streams[i].status for i in ids]
    client.close()
    return {"while_held": held, "statuses": statuses, "release": client.streams[release].status}


def scenario_httpx(args):
    import httpx
    with httpx.Client(http2=True, verify=args.ca, timeout=TIMEOUT) as http:
        url = f"https://{args.server_name}:{args.port}{args.path}"
        headers = [tuple(h.split(":", 1)) for h in args.header]
        response = http.request(args.method, url, headers=headers, content=args.body.encode() if args.body else None)
        return {"status": response.status_code, "http_version": response.http_version,
                "headers": [[k, v] for k, v in response.headers.multi_items()], "body": response.text}


SCENARIOS = {
    "request": scenario_request,
    "too-large-then-ok": scenario_too_large_then_ok,
    "concurrent": scenario_concurrent,
    "goaway": scenario_goaway,
    "goaway-in-flight": scenario_goaway_in_flight,
    "invalid-headers": scenario_invalid_headers,
    "budget": scenario_budget,
    "httpx": scenario_httpx,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--tls", action="store_true")
    parser.add_argument("--no-alpn", action="store_true", help="TLS without ALPN (set_alpn_protocols is not called)")
    parser.add_argument("--ca", help="CA certificate to trust (PEM)")
    parser.add_argument("--server-name", default="localhost")
    parser.add_argument("--method", default="GET")
    parser.add_argument("--path", default="/")
    parser.add_argument("--release-path", default="/")
    parser.add_argument("--fault-path", default="/")
    parser.add_argument("--header", action="append", default=[], help="name:value")
    parser.add_argument("--body")
    parser.add_argument("--body-size", type=int, default=0)
    parser.add_argument("--no-content-length", action="store_true")
    parser.add_argument("--count", type=int, default=1)
    args = parser.parse_args()
    json.dump(SCENARIOS[args.scenario](args), sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
