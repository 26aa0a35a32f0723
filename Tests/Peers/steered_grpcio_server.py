#!/usr/bin/env python3
"""The steered raw-bytes test service of Tests/RPCTestService, served by stock grpcio.

The Swift client tests (RPCNIOTests, GRPCIOPeerTests) start it as a real peer:

    python3 Tests/Peers/steered_grpcio_server.py --port 0

prints `listening on port N` and serves until stdin closes or SIGTERM. Behaviour is the
Swift service's: request metadata steers it (x-sleep-ms, x-fail-code, x-fail-message[-bin],
x-fail-after, x-reply-count, x-reply-size, x-echo-initial*, x-echo-trailing*).
"""
import argparse
import signal
import sys
import threading
import time
from concurrent import futures

import grpc

SERVICE = "glimpse.test.Steered"


class Steering:
    def __init__(self, metadata):
        self.sleep_ms = 0
        self.fail_code = None
        self.fail_message = ""
        self.fail_after = 0
        self.reply_count = 1
        self.reply_size = None
        self.initial = []
        self.trailing = []
        for key, value in metadata:
            if key == "x-sleep-ms":
                self.sleep_ms = int(value)
            elif key == "x-fail-code":
                self.fail_code = int(value)
            elif key == "x-fail-message":
                self.fail_message = value
            elif key == "x-fail-message-bin":
                self.fail_message = value.decode("utf-8")
            elif key == "x-fail-after":
                self.fail_after = int(value)
            elif key == "x-reply-count":
                self.reply_count = int(value)
            elif key == "x-reply-size":
                self.reply_size = int(value)
            else:
                if key.startswith("x-echo-initial"):
                    self.initial.append((key, value))
                if key.startswith("x-echo-trailing"):
                    self.trailing.append((key, value))

    def begin(self, context):
        if self.initial:
            context.send_initial_metadata(self.initial)
        if self.sleep_ms:
            deadline = time.monotonic() + self.sleep_ms / 1000
            while time.monotonic() < deadline and context.is_active():
                time.sleep(0.005)

    def fail_if_asked(self, context, sent):
        if self.fail_code and sent >= self.fail_after:
            context.set_trailing_metadata(self.trailing)
            context.abort(grpc.StatusCode(_code(self.fail_code)), self.fail_message)

    def reply(self, request):
        return request if self.reply_size is None else b"r" * self.reply_size

    def end(self, context):
        context.set_trailing_metadata(self.trailing)


def _code(number):
    return next(code.value for code in grpc.StatusCode if code.value[0] == number)


def unary(request, context):
    steer = Steering(context.invocation_metadata())
    steer.begin(context)
    steer.fail_if_asked(context, 0)
    steer.end(context)
    return steer.reply(request)


def server_stream(request, context):
    steer = Steering(context.invocation_metadata())
    steer.begin(context)
    for sent in range(steer.reply_count):
        steer.fail_if_asked(context, sent)
        yield steer.reply(request)
    steer.fail_if_asked(context, steer.reply_count)
    steer.end(context)


def client_stream(requests, context):
    steer = Steering(context.invocation_metadata())
    steer.begin(context)
    total = sum(len(message) for message in requests)
    steer.fail_if_asked(context, 0)
    steer.end(context)
    return str(total).encode()


def bidi(requests, context):
    steer = Steering(context.invocation_metadata())
    steer.begin(context)
    sent = 0
    for message in requests:
        steer.fail_if_asked(context, sent)
        yield steer.reply(message)
        sent += 1
    steer.fail_if_asked(context, sent)
    steer.end(context)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    handlers = {
        "Unary": grpc.unary_unary_rpc_method_handler(unary),
        "ServerStream": grpc.unary_stream_rpc_method_handler(server_stream),
        "ClientStream": grpc.stream_unary_rpc_method_handler(client_stream),
        "Bidi": grpc.stream_stream_rpc_method_handler(bidi),
    }
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
    port = server.add_insecure_port(f"127.0.0.1:{args.port}")
    server.start()
    print(f"listening on port {port}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    stop.wait()
    server.stop(grace=1).wait()


if __name__ == "__main__":
    main()
