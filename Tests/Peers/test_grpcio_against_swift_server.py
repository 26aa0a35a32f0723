"""Stock grpcio (Python) against the Swift server: generic calls with bytes in and out.

Run from the repository root: `python3 -m pytest Tests/Peers -q` (scripts/test.sh does).
"""
import threading

import grpc
import pytest

SVC = "/glimpse.test.Steered/"
SPECIAL = "\t\ntest with whitespace\r\nand Unicode BMP ☺ and non-BMP 😈\t\n"


def unary(channel):
    return channel.unary_unary(SVC + "Unary")


def test_unary_echo(channel):
    assert unary(channel)(b"hello", timeout=60) == b"hello"


def test_empty_unary(channel):
    assert unary(channel)(b"", timeout=60) == b""


def test_server_streaming(channel):
    call = channel.unary_stream(SVC + "ServerStream")
    replies = list(call(b"abc", metadata=[("x-reply-count", "4"), ("x-reply-size", "31415")], timeout=60))
    assert [len(r) for r in replies] == [31415] * 4


def test_client_streaming(channel):
    call = channel.stream_unary(SVC + "ClientStream")
    sizes = [27182, 8, 1828, 45904]
    assert call(iter(b"x" * n for n in sizes), timeout=60) == b"74922"


def test_bidi_ping_pong(channel):
    call = channel.stream_stream(SVC + "Bidi")
    sizes = [31415, 9, 2653, 58979]
    assert [len(r) for r in call(iter(b"y" * n for n in sizes), timeout=60)] == sizes


def test_empty_stream(channel):
    call = channel.stream_stream(SVC + "Bidi")
    assert list(call(iter([]), timeout=60)) == []


def test_status_code_and_special_message(channel):
    with pytest.raises(grpc.RpcError) as failure:
        unary(channel)(b"", metadata=[("x-fail-code", "2"), ("x-fail-message-bin", SPECIAL.encode())], timeout=60)
    assert failure.value.code() == grpc.StatusCode.UNKNOWN
    assert failure.value.details() == SPECIAL


def test_status_message_as_text(channel):
    with pytest.raises(grpc.RpcError) as failure:
        unary(channel)(b"", metadata=[("x-fail-code", "9"), ("x-fail-message", "100% sure")], timeout=60)
    assert failure.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert failure.value.details() == "100% sure"


def test_custom_metadata_both_ways(channel):
    metadata = [("x-echo-initial", "test_initial_metadata_value"), ("x-echo-trailing-bin", b"\xab\xab\xab"),
                ("x-echo-initial-bin", b"\x00\x01\xfe")]
    reply, call = unary(channel).with_call(b"x", metadata=metadata, timeout=60)
    assert reply == b"x"
    initial = dict(call.initial_metadata())
    trailing = dict(call.trailing_metadata())
    assert initial["x-echo-initial"] == "test_initial_metadata_value"
    assert initial["x-echo-initial-bin"] == b"\x00\x01\xfe"
    assert trailing["x-echo-trailing-bin"] == b"\xab\xab\xab"


def test_custom_metadata_on_streams(channel):
    call = channel.stream_stream(SVC + "Bidi")(
        iter([b"1"]), metadata=[("x-echo-initial", "i"), ("x-echo-trailing-bin", b"\x01")], timeout=60)
    assert list(call) == [b"1"]
    assert dict(call.initial_metadata())["x-echo-initial"] == "i"
    assert dict(call.trailing_metadata())["x-echo-trailing-bin"] == b"\x01"


def test_timeout_on_sleeping_server(channel):
    with pytest.raises(grpc.RpcError) as failure:
        unary(channel)(b"", metadata=[("x-sleep-ms", "5000")], timeout=0.2)
    assert failure.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


def test_cancel_after_begin(channel):
    blocked = threading.Event()

    def requests():
        blocked.wait(10)
        yield b"never"

    future = channel.stream_unary(SVC + "ClientStream").future(requests(), timeout=60)
    future.cancel()
    blocked.set()
    assert future.cancelled()
    with pytest.raises(grpc.FutureCancelledError):
        future.result()


def test_cancel_after_first_response(channel):
    release = threading.Event()

    def requests():
        yield b"first"
        release.wait(10)

    call = channel.stream_stream(SVC + "Bidi")(requests(), timeout=60)
    assert next(call) == b"first"
    call.cancel()
    release.set()
    with pytest.raises(grpc.RpcError) as failure:
        next(call)
    assert failure.value.code() == grpc.StatusCode.CANCELLED


def test_unknown_method_is_unimplemented(channel):
    with pytest.raises(grpc.RpcError) as failure:
        channel.unary_unary(SVC + "Missing")(b"", timeout=60)
    assert failure.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_unknown_service_is_unimplemented(channel):
    with pytest.raises(grpc.RpcError) as failure:
        channel.unary_unary("/no.such.Service/Unary")(b"", timeout=60)
    assert failure.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_oversized_request_is_resource_exhausted(channel):
    with pytest.raises(grpc.RpcError) as failure:
        unary(channel)(b"z" * (4 * 1024 * 1024 + 1), timeout=60)
    assert failure.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_large_messages_both_ways(channel):
    reply = unary(channel)(b"\x00" * 271828, metadata=[("x-reply-size", "314159")], timeout=60)
    assert len(reply) == 314159
    assert unary(channel)(b"q" * 300_000, timeout=60) == b"q" * 300_000


def test_error_after_some_replies(channel):
    call = channel.unary_stream(SVC + "ServerStream")(
        b"s", metadata=[("x-reply-count", "5"), ("x-fail-code", "10"), ("x-fail-after", "2")], timeout=60)
    received = []
    with pytest.raises(grpc.RpcError) as failure:
        for reply in call:
            received.append(reply)
    assert received == [b"s", b"s"]
    assert failure.value.code() == grpc.StatusCode.ABORTED


def test_many_concurrent_calls(channel):
    futures = [unary(channel).future(bytes([i]), timeout=60) for i in range(200)]
    assert [f.result() for f in futures] == [bytes([i]) for i in range(200)]
