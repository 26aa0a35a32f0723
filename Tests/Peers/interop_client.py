#!/usr/bin/env python3
"""The gRPC interoperability test client on Python grpcio.

Cases follow grpc/grpc doc/interop-test-descriptions.md. Usable as a command
(`interop_client.py --server_port 50051 --test_case large_unary`, exit 0 on success) and as
a module (`run_case(channel, name)`), which tests/test_interop.py does.
"""
import argparse
import sys

import grpc

from grpc_testing import modules

messages, empty, services = modules()

SPECIAL_MESSAGE = "\t\ntest with whitespace\r\nand Unicode BMP ☺ and non-BMP 😈\t\n"


def zeros(n):
    return messages.Payload(body=b"\x00" * n)


def request_queue():
    """(queue, iterator): requests put on the queue are sent; None half-closes."""
    import queue
    outbox = queue.Queue()

    def requests():
        while True:
            item = outbox.get()
            if item is None:
                return
            yield item

    return outbox, requests()


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


def empty_unary(stub):
    response = stub.EmptyCall(empty.Empty())
    expect(isinstance(response, empty.Empty), "EmptyCall returned a non-Empty")


def large_unary(stub):
    response = stub.UnaryCall(messages.SimpleRequest(response_size=314159, payload=zeros(271828)))
    expect(len(response.payload.body) == 314159, f"payload {len(response.payload.body)} != 314159")
    expect(response.payload.body == b"\x00" * 314159, "payload is not zeros")


def client_streaming(stub):
    sizes = [27182, 8, 1828, 45904]
    response = stub.StreamingInputCall(
        iter([messages.StreamingInputCallRequest(payload=zeros(n)) for n in sizes]))
    expect(response.aggregated_payload_size == 74922, f"aggregated {response.aggregated_payload_size}")


def server_streaming(stub):
    sizes = [31415, 9, 2653, 58979]
    request = messages.StreamingOutputCallRequest(
        response_parameters=[messages.ResponseParameters(size=n) for n in sizes])
    got = [len(r.payload.body) for r in stub.StreamingOutputCall(request)]
    expect(got == sizes, f"sizes {got}")


def ping_pong(stub):
    pairs = [(31415, 27182), (9, 8), (2653, 1828), (58979, 45904)]
    outbox, requests = request_queue()
    call = stub.FullDuplexCall(requests)
    for response_size, payload_size in pairs:
        outbox.put(messages.StreamingOutputCallRequest(
            response_parameters=[messages.ResponseParameters(size=response_size)], payload=zeros(payload_size)))
        response = next(call)
        expect(len(response.payload.body) == response_size, f"reply {len(response.payload.body)} != {response_size}")
    outbox.put(None)
    expect(next(call, None) is None, "more replies than requests")
    expect(call.code() == grpc.StatusCode.OK, f"status {call.code()}")


def empty_stream(stub):
    got = list(stub.FullDuplexCall(iter([])))
    expect(got == [], f"{len(got)} replies to no requests")


def status_code_and_message(stub, message="test status message"):
    status = messages.EchoStatus(code=2, message=message)
    try:
        stub.UnaryCall(messages.SimpleRequest(response_status=status))
        raise AssertionError("UnaryCall succeeded")
    except grpc.RpcError as e:
        expect(e.code() == grpc.StatusCode.UNKNOWN, f"unary code {e.code()}")
        expect(e.details() == message, f"unary message {e.details()!r}")
    call = stub.FullDuplexCall(iter([messages.StreamingOutputCallRequest(response_status=status)]))
    try:
        list(call)
        raise AssertionError("FullDuplexCall succeeded")
    except grpc.RpcError as e:
        expect(e.code() == grpc.StatusCode.UNKNOWN, f"duplex code {e.code()}")
        expect(e.details() == message, f"duplex message {e.details()!r}")


def special_status_message(stub):
    status = messages.EchoStatus(code=2, message=SPECIAL_MESSAGE)
    try:
        stub.UnaryCall(messages.SimpleRequest(response_status=status))
        raise AssertionError("UnaryCall succeeded")
    except grpc.RpcError as e:
        expect(e.code() == grpc.StatusCode.UNKNOWN, f"code {e.code()}")
        expect(e.details() == SPECIAL_MESSAGE, f"message {e.details()!r}")


def custom_metadata(stub):
    metadata = (("x-grpc-test-echo-initial", "test_initial_metadata_value"),
                ("x-grpc-test-echo-trailing-bin", b"\xab\xab\xab"))

    def check(initial, trailing):
        initial = dict(initial)
        trailing = dict(trailing)
        expect(initial.get("x-grpc-test-echo-initial") == "test_initial_metadata_value", f"initial {initial}")
        expect(trailing.get("x-grpc-test-echo-trailing-bin") == b"\xab\xab\xab", f"trailing {trailing}")

    response, call = stub.UnaryCall.with_call(
        messages.SimpleRequest(response_size=314159, payload=zeros(271828)), metadata=metadata)
    expect(len(response.payload.body) == 314159, "unary payload size")
    check(call.initial_metadata(), call.trailing_metadata())
    call = stub.FullDuplexCall(
        iter([messages.StreamingOutputCallRequest(
            response_parameters=[messages.ResponseParameters(size=314159)], payload=zeros(271828))]),
        metadata=metadata)
    replies = list(call)
    expect(len(replies) == 1 and len(replies[0].payload.body) == 314159, "duplex replies")
    check(call.initial_metadata(), call.trailing_metadata())


def unimplemented_method(stub, channel):
    try:
        stub.UnimplementedCall(empty.Empty())
        raise AssertionError("UnimplementedCall succeeded")
    except grpc.RpcError as e:
        expect(e.code() == grpc.StatusCode.UNIMPLEMENTED, f"code {e.code()}")


def unimplemented_service(stub, channel):
    other = services.UnimplementedServiceStub(channel)
    try:
        other.UnimplementedCall(empty.Empty())
        raise AssertionError("UnimplementedService succeeded")
    except grpc.RpcError as e:
        expect(e.code() == grpc.StatusCode.UNIMPLEMENTED, f"code {e.code()}")


def cancel_after_begin(stub):
    import threading
    gate = threading.Event()

    def requests():
        gate.wait()
        return
        yield

    future = stub.StreamingInputCall.future(requests())
    future.cancel()
    gate.set()
    expect(future.cancelled(), "call not cancelled")
    try:
        future.result()
        raise AssertionError("cancelled call returned a result")
    except grpc.FutureCancelledError:
        pass
    except grpc.RpcError as e:
        expect(e.code() == grpc.StatusCode.CANCELLED, f"code {e.code()}")


def cancel_after_first_response(stub):
    outbox, requests = request_queue()
    call = stub.FullDuplexCall(requests)
    outbox.put(messages.StreamingOutputCallRequest(
        response_parameters=[messages.ResponseParameters(size=31415)], payload=zeros(27182)))
    first = next(call)
    expect(len(first.payload.body) == 31415, "first reply size")
    call.cancel()
    outbox.put(None)
    try:
        next(call)
        raise AssertionError("reply after cancel")
    except grpc.RpcError as e:
        expect(e.code() == grpc.StatusCode.CANCELLED, f"code {e.code()}")


def timeout_on_sleeping_server(stub):
    import threading
    gate = threading.Event()

    def requests():
        yield messages.StreamingOutputCallRequest(payload=zeros(27182))
        gate.wait(5)

    call = stub.FullDuplexCall(requests(), timeout=0.001)
    try:
        list(call)
        raise AssertionError("call outlived its deadline")
    except grpc.RpcError as e:
        expect(e.code() == grpc.StatusCode.DEADLINE_EXCEEDED, f"code {e.code()}")
    finally:
        gate.set()


CASES = {
    "empty_unary": empty_unary,
    "large_unary": large_unary,
    "client_streaming": client_streaming,
    "server_streaming": server_streaming,
    "ping_pong": ping_pong,
    "empty_stream": empty_stream,
    "status_code_and_message": status_code_and_message,
    "special_status_message": special_status_message,
    "custom_metadata": custom_metadata,
    "unimplemented_method": unimplemented_method,
    "unimplemented_service": unimplemented_service,
    "cancel_after_begin": cancel_after_begin,
    "cancel_after_first_response": cancel_after_first_response,
    "timeout_on_sleeping_server": timeout_on_sleeping_server,
}


def run_case(channel, name):
    stub = services.TestServiceStub(channel)
    case = CASES[name]
    if case in (unimplemented_method, unimplemented_service):
        case(stub, channel)
    else:
        case(stub)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server_host", default="127.0.0.1")
    parser.add_argument("--server_port", type=int, required=True)
    parser.add_argument("--test_case", default="all")
    args = parser.parse_args()
    names = list(CASES) if args.test_case == "all" else [args.test_case]
    failed = 0
    with grpc.insecure_channel(f"{args.server_host}:{args.server_port}") as channel:
        for name in names:
            try:
                run_case(channel, name)
                print(f"PASS {name}")
            except Exception as e:  # report every case, then fail
                print(f"FAIL {name}: {e}")
                failed += 1
    print(f"{len(names) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
