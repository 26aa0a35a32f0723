"""RPC glue for .proto services: method descriptors, handler protocols, typed clients."""
from google.protobuf import descriptor_pb2 as d

from .naming import HEADER, Writer, camel_to_lower, escape, lower_camel, namespace_for
from .registry import Registry


def service_file(reg: Registry, f: d.FileDescriptorProto, visibility: str, imports: list[str],
                 api_imports: list[str]) -> str:
    """RPC glue for the services of one file: method descriptors, a handler protocol whose
    `registerMethods(with:)` wires each method to the router with protobuf-c
    (de)serializers (and `registerJSONMethods(with:)` with proto3 JSON ones), and a typed
    client over `GRPCClient`."""
    w = Writer()
    w(HEADER.format(source=f.name).rstrip("\n"))
    w()
    # RPCCore's types and those of `api_imports` (the messages' module) are in the API of
    # what is generated; `imports` are used inside it only.
    for module in ["RPCCore", *api_imports]:
        w(f"{visibility} import {module}")
    for module in imports:
        w(f"import {module}")
    w()
    ns = namespace_for(f.package)
    v = visibility
    for si, svc in enumerate(f.service):
        full = f"{f.package}.{svc.name}" if f.package else svc.name
        methods = []
        for mi, m in enumerate(svc.method):
            req = reg.message(m.input_type).swift
            res = reg.message(m.output_type).swift
            kind = {(False, False): "unary", (False, True): "serverStreaming",
                    (True, False): "clientStreaming", (True, True): "bidirectionalStreaming"}[
                        (m.client_streaming, m.server_streaming)]
            methods.append((lower_camel(camel_to_lower(m.name)), m.name, req, res, kind, mi))
        w(f"extension {ns} {{")
        w.indent()
        w.doc(reg.comments.get((f.name, (6, si))))
        w(f"{v} enum {svc.name} {{")
        w.indent()
        w(f'{v} static let name = "{full}"')
        w()
        w(f"{v} enum Method {{")
        w.indent()
        for swift, proto, req, res, kind, mi in methods:
            w(f'{v} static let {escape(swift)} = MethodDescriptor(service: "{full}", method: "{proto}")')
        w(f"{v} static let all: [MethodDescriptor] = [{', '.join(escape(m[0]) for m in methods)}]")
        w.close()
        w()
        w(f"/// Serves `{full}`: implement each method; `registerMethods(with:)` is provided, and")
        w("/// `registerJSONMethods(with:)` for its JSON face (unary and server-streaming methods).")
        w(f"{v} protocol Handler: RPCJSONService {{")
        w.indent()
        for swift, proto, req, res, kind, mi in methods:
            w.doc(reg.comments.get((f.name, (6, si, 2, mi))))
            if kind == "unary":
                w(f"func {escape(swift)}(request: ServerRequest<{req}>, context: ServerContext) async throws -> ServerResponse<{res}>")
            elif kind == "serverStreaming":
                w(f"func {escape(swift)}(request: ServerRequest<{req}>, response: ResponseWriter<{res}>, context: ServerContext) async throws -> Metadata")
            elif kind == "clientStreaming":
                w(f"func {escape(swift)}(request: RequestStream<{req}>, context: ServerContext) async throws -> ServerResponse<{res}>")
            else:
                w(f"func {escape(swift)}(request: RequestStream<{req}>, response: ResponseWriter<{res}>, context: ServerContext) async throws -> Metadata")
        w.close()
        w()
        w(f"/// Calls `{full}` through a `GRPCClient`.")
        w(f"{v} struct Client: Sendable {{")
        w.indent()
        w(f"{v} let client: GRPCClient")
        w()
        w(f"{v} init(wrapping client: GRPCClient) {{ self.client = client }}")
        for swift, proto, req, res, kind, mi in methods:
            w()
            w.doc(reg.comments.get((f.name, (6, si, 2, mi))))
            method = f"Method.{escape(swift)}"
            coders = f"serializer: ProtoSerializer<{req}>(), deserializer: ProtoDeserializer<{res}>()"
            if kind == "unary":
                w(f"{v} func {escape(swift)}(_ request: ClientRequest<{req}>, options: CallOptions = .defaults) async throws -> ClientResponse<{res}> {{")
                w(f"    try await client.unary(request: request, method: {method}, {coders}, options: options)")
            elif kind == "serverStreaming":
                w(f"{v} func {escape(swift)}<Result: Sendable>(")
                w(f"    _ request: ClientRequest<{req}>, options: CallOptions = .defaults,")
                w(f"    onResponse: (ResponseStream<{res}>) async throws -> Result")
                w(") async throws -> Result {")
                w(f"    try await client.serverStreaming(request: request, method: {method}, {coders}, options: options, onResponse: onResponse)")
            elif kind == "clientStreaming":
                w(f"{v} func {escape(swift)}(")
                w("    metadata: Metadata = Metadata(), options: CallOptions = .defaults,")
                w(f"    requestProducer: (RequestWriter<{req}>) async throws -> Void")
                w(f") async throws -> ClientResponse<{res}> {{")
                w(f"    try await client.clientStreaming(metadata: metadata, method: {method}, {coders}, options: options, requestProducer: requestProducer)")
            else:
                w(f"{v} func {escape(swift)}<Result: Sendable>(")
                w("    metadata: Metadata = Metadata(), options: CallOptions = .defaults,")
                w(f"    requestProducer: @escaping @Sendable (RequestWriter<{req}>) async throws -> Void,")
                w(f"    onResponse: (ResponseStream<{res}>) async throws -> Result")
                w(") async throws -> Result {")
                w("    try await client.bidirectionalStreaming(")
                w(f"        metadata: metadata, method: {method}, {coders}, options: options,")
                w("        requestProducer: requestProducer, onResponse: onResponse)")
            w("}")
        w.close(3)
        w()
        w(f"extension {ns}.{svc.name}.Handler {{")
        w.indent()
        w(f"{v} func registerMethods(with router: inout RPCRouter) {{")
        w.indent()
        for swift, proto, req, res, kind, mi in methods:
            register = {"unary": "registerUnary", "serverStreaming": "registerServerStreaming",
                        "clientStreaming": "registerClientStreaming",
                        "bidirectionalStreaming": "registerBidirectionalStreaming"}[kind]
            args = {"unary": "request, context", "serverStreaming": "request, response, context",
                    "clientStreaming": "request, context", "bidirectionalStreaming": "request, response, context"}[kind]
            call = {"unary": "request: request, context: context",
                    "serverStreaming": "request: request, response: response, context: context",
                    "clientStreaming": "request: request, context: context",
                    "bidirectionalStreaming": "request: request, response: response, context: context"}[kind]
            w(f"router.{register}(")
            w(f"    {ns}.{svc.name}.Method.{escape(swift)},")
            w(f"    deserializer: ProtoDeserializer<{req}>(), serializer: ProtoSerializer<{res}>()")
            w(f") {{ {args} in try await self.{escape(swift)}({call}) }}")
        w.close()
        w()
        # The same handler methods with proto3 JSON coders, for HTTP/JSON calls on
        # `POST /v1/<resource>/<verb>` (RPCCore's JSONRoutes). A JSON request is one body,
        # so client and bidirectional streaming methods have no JSON face.
        json_methods = [m for m in methods if m[4] in ("unary", "serverStreaming")]
        w(f"{v} func registerJSONMethods(with router: inout RPCRouter) {{")
        w.indent()
        for swift, proto, req, res, kind, mi in json_methods:
            register = {"unary": "registerUnary", "serverStreaming": "registerServerStreaming"}[kind]
            args = {"unary": "request, context", "serverStreaming": "request, response, context"}[kind]
            call = {"unary": "request: request, context: context",
                    "serverStreaming": "request: request, response: response, context: context"}[kind]
            w(f"router.{register}(")
            w(f"    {ns}.{svc.name}.Method.{escape(swift)}, format: .json,")
            w(f"    deserializer: ProtoJSONDeserializer<{req}>(), serializer: ProtoJSONSerializer<{res}>()")
            w(f") {{ {args} in try await self.{escape(swift)}({call}) }}")
        w.close(2)
        w()
    return w.text()
