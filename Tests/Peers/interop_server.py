#!/usr/bin/env python3
"""grpc.testing.TestService on Python grpcio: the stock server our Swift client runs the
interop cases against. Behaviour as grpc/grpc doc/interop-test-descriptions.md's
"Server" section describes (EmptyCall, UnaryCall, StreamingInputCall,
StreamingOutputCall, FullDuplexCall, Echo Status, Echo Metadata, interval_us).

    interop_server.py --port 50052      serves until killed; prints "listening <port>"
"""
import argparse
import sys
import time
from concurrent import futures

import grpc

from grpc_testing import modules

messages, empty, services = modules()


def echo_metadata(context):
    incoming = dict(context.invocation_metadata())
    if "x-grpc-test-echo-initial" in incoming:
        context.send_initial_metadata((("x-grpc-test-echo-initial", incoming["x-grpc-test-echo-initial"]),))
    if "x-grpc-test-echo-trailing-bin" in incoming:
        context.set_trailing_metadata(
            (("x-grpc-test-echo-trailing-bin", incoming["x-grpc-test-echo-trailing-bin"]),))


def fail_if_asked(request, context):
    if request.HasField("response_status") and request.response_status.code != 0:
        context.abort(grpc.StatusCode(_code(request.response_status.code)), request.response_status.message)


def _code(number):
    for code in grpc.StatusCode:
        if code.value[0] == number:
            return code.value
    return grpc.StatusCode.UNKNOWN.value


class TestService(services.TestServiceServicer):
    def EmptyCall(self, request, context):
        echo_metadata(context)
        return empty.Empty()

    def UnaryCall(self, request, context):
        echo_metadata(context)
        fail_if_asked(request, context)
        return messages.SimpleResponse(payload=messages.Payload(body=b"\x00" * request.response_size))

    def StreamingInputCall(self, request_iterator, context):
        echo_metadata(context)
        total = sum(len(r.payload.body) for r in request_iterator)
        return messages.StreamingInputCallResponse(aggregated_payload_size=total)

    def StreamingOutputCall(self, request, context):
        echo_metadata(context)
        fail_if_asked(request, context)
        for parameters in request.response_parameters:
            if parameters.interval_us:
                time.sleep(parameters.interval_us / 1e6)
            yield messages.StreamingOutputCallResponse(payload=messages.Payload(body=b"\x00" * parameters.size))

    def FullDuplexCall(self, request_iterator, context):
        echo_metadata(context)
        for request in request_iterator:
            fail_if_asked(request, context)
            for parameters in request.response_parameters:
                if parameters.interval_us:
                    time.sleep(parameters.interval_us / 1e6)
                yield messages.StreamingOutputCallResponse(payload=messages.Payload(body=b"\x00" * parameters.size))


def serve(port: int) -> grpc.Server:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    services.add_TestServiceServicer_to_server(TestService(), server)
    bound = server.add_insecure_port(f"127.0.0.1:{port}")
    server.start()
    server.bound_port = bound
    return server


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    server = serve(args.port)
    print(f"listening {server.bound_port}", flush=True)
    server.wait_for_termination()
    return 0


if __name__ == "__main__":
    sys.exit(main())
