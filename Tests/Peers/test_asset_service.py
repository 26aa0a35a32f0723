"""glimpse-asset end to end: the real executable, with stock grpcio as the client.

Scopes as the service defines them: registering an app is the device's call (no token)
and returns the app token; every other call names an app, and an app's token reaches only
that app's names; the device (no token) reaches every app. Blobs are content-addressed
files under the data directory (`blobs/<sha256>`), written and fsynced before a Put is
acknowledged, shared by every name that holds the same bytes.
"""
import hashlib
import os
import random
import struct
import subprocess
import zlib

import grpc
import pytest

from glimpse_protos import glimpse_modules
from test_timeline_service import Process, RPC_TIMEOUT, _binary, _bearer, _code, assert_malformed_protobuf_refused

glimpse_modules()
from glimpse.app.v1 import manifest_pb2  # noqa: E402
from glimpse.asset.v1 import asset_pb2 as a, asset_pb2_grpc  # noqa: E402
from glimpse.clock.v1 import clock_pb2, clock_pb2_grpc  # noqa: E402

PIXAR = "com.example.pixartracker"
PIZZA = "com.example.pizza"
Use = manifest_pb2.AssetDeclaration
C = grpc.StatusCode


def png(width, height, filler=64, seed=0):
    """A PNG: signature, IHDR with the dimensions, an IDAT of filler, IEND."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    body = bytes((i * 31 + seed) & 0xFF for i in range(filler))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">II", width, height) + bytes([8, 6, 0, 0, 0]))
            + chunk(b"IDAT", body) + chunk(b"IEND", b""))


def jpeg(width, height, exif=0, seed=0):
    """A JPEG: SOI, APP0, optional APP1 padding, DQT, SOF0 with the dimensions, SOS, data, EOI."""
    def segment(marker, body):
        return bytes([0xFF, marker]) + struct.pack(">H", len(body) + 2) + body
    out = b"\xff\xd8" + segment(0xE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
    if exif:
        out += segment(0xE1, b"Exif\x00\x00" + bytes([0xAB]) * exif)
    out += segment(0xDB, b"\x00" + b"\x01" * 64)
    out += segment(0xC0, b"\x08" + struct.pack(">HH", height, width) + bytes([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]))
    out += segment(0xDA, bytes([3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0]))
    return out + bytes([0x12, 0x34, 0xFF, 0x00, 0x56, seed & 0xFF, 0xFF, 0xD9])


def sha(data):
    return hashlib.sha256(data).hexdigest()


def put_requests(bundle, name, data, use=Use.USE_WIDGET, chunk=4096, sha256=None, size=None):
    header = a.PutHeader(bundle_id=bundle, name=name, use=use, sha256=sha(data) if sha256 is None else sha256,
                         size=len(data) if size is None else size)
    yield a.PutRequest(header=header)
    for start in range(0, len(data), chunk):
        yield a.PutRequest(chunk=data[start:start + chunk])


def put(stub, bundle, name, data, metadata=None, **kwargs):
    return stub.Put(put_requests(bundle, name, data, **kwargs), metadata=metadata, timeout=RPC_TIMEOUT)


def get(stub, bundle, name, metadata=None, **kwargs):
    """The header and the bytes of a Get."""
    parts = list(stub.Get(a.GetRequest(bundle_id=bundle, name=name, **kwargs), metadata=metadata, timeout=RPC_TIMEOUT))
    assert parts and parts[0].WhichOneof("part") == "header", parts[:1]
    assert all(p.WhichOneof("part") == "chunk" for p in parts[1:])
    return parts[0].header, b"".join(p.chunk for p in parts[1:])


def register(stub, bundle):
    return _bearer(stub.RegisterApp(a.RegisterAppRequest(manifest=manifest_pb2.AppManifest(bundle_id=bundle)),
                                    timeout=RPC_TIMEOUT).app_token)


def refused(call, request, code, *words, metadata=None):
    """Calls `call` (a stream of requests for Put) and checks the code and that the message names the words."""
    with pytest.raises(grpc.RpcError) as raised:
        result = call(request, timeout=RPC_TIMEOUT, metadata=metadata)
        if hasattr(result, "__iter__") and not isinstance(result, a.PutResponse):
            list(result)
    details = raised.value.details() or ""
    assert raised.value.code() == code, (raised.value.code(), details)
    for word in words:
        assert word in details, (details, word)
    return details


def start(tmp_path, *flags, name="glimpse-asset"):
    return Process(name, [_binary("glimpse-asset"), "--port", "0", "--data-dir", str(tmp_path / "asset"), *flags], tmp_path)


def blob_files(tmp_path):
    return set(os.listdir(tmp_path / "asset" / "blobs"))


def staging_files(tmp_path):
    return os.listdir(tmp_path / "asset" / "staging")


def test_put_get_stat_list_delete_pin_prefetch_between_two_apps(tmp_path):
    service = start(tmp_path, "--budget-bytes", "60000")
    try:
        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            stub = asset_pb2_grpc.AssetServiceStub(channel)
            pixar = register(stub, PIXAR)
            pizza = register(stub, PIZZA)
            coco = png(400, 300, filler=20000)

            # Put in chunks: the declared SHA-256 is the blob's name and, quoted, its ETag.
            stored = put(stub, PIXAR, "posters/coco", coco, metadata=pixar, chunk=3000)
            assert not stored.deduplicated
            asset = stored.asset
            assert (asset.sha256, asset.etag, asset.size) == (sha(coco), f'"{sha(coco)}"', len(coco))
            assert (asset.width, asset.height, asset.format) == (400, 300, a.IMAGE_FORMAT_PNG)
            assert blob_files(tmp_path) == {sha(coco)}

            # Get: the header, then the bytes in the chunks asked for; the ETag also as metadata.
            call = stub.Get(a.GetRequest(bundle_id=PIXAR, name="posters/coco", chunk_size=1024), metadata=pixar,
                            timeout=RPC_TIMEOUT)
            parts = list(call)
            assert dict(call.initial_metadata())["etag"] == asset.etag
            assert parts[0].header.asset == asset and not parts[0].header.not_modified
            assert [len(p.chunk) for p in parts[1:]] == [1024] * (len(coco) // 1024) + [len(coco) % 1024]
            assert b"".join(p.chunk for p in parts[1:]) == coco
            # Unchanged since: the header only, `not_modified`, no bytes.
            header, data = get(stub, PIXAR, "posters/coco", metadata=pixar, if_none_match=asset.etag)
            assert header.not_modified and data == b""
            header, data = get(stub, PIXAR, "posters/coco", metadata=pixar, if_none_match=f'"{sha(b"old")}"')
            assert not header.not_modified and data == coco

            # Stat and List (in name order, with a prefix).
            assert stub.Stat(a.StatRequest(bundle_id=PIXAR, name="posters/coco"), metadata=pixar,
                             timeout=RPC_TIMEOUT).asset == asset
            tim = jpeg(120, 90, exif=500)
            put(stub, PIXAR, "drivers/tim", tim, metadata=pixar)
            listed = stub.List(a.ListRequest(bundle_id=PIXAR), metadata=pixar, timeout=RPC_TIMEOUT)
            assert [x.name for x in listed.assets] == ["drivers/tim", "posters/coco"]
            listed = stub.List(a.ListRequest(bundle_id=PIXAR, prefix="posters/"), metadata=pixar, timeout=RPC_TIMEOUT)
            assert [x.name for x in listed.assets] == ["posters/coco"]

            # Isolation: Pizza's token reaches nothing of Pixar's; Pizza's own namespace does
            # not have Pixar's names; the device (no token) reaches both.
            for method, request in [
                (stub.Stat, a.StatRequest(bundle_id=PIXAR, name="posters/coco")),
                (stub.List, a.ListRequest(bundle_id=PIXAR)),
                (stub.Delete, a.DeleteRequest(bundle_id=PIXAR, name="posters/coco")),
                (stub.Pin, a.PinRequest(bundle_id=PIXAR, holder="widget:1", names=["posters/coco"])),
                (stub.Unpin, a.UnpinRequest(bundle_id=PIXAR, holder="widget:1")),
                (stub.Prefetch, a.PrefetchRequest(bundle_id=PIXAR, names=["posters/coco"])),
                (stub.UnregisterApp, a.UnregisterAppRequest(bundle_id=PIXAR)),
            ]:
                assert _code(method, request, metadata=pizza) == C.PERMISSION_DENIED, method
            refused(stub.Get, a.GetRequest(bundle_id=PIXAR, name="posters/coco"), C.PERMISSION_DENIED, metadata=pizza)
            refused(stub.Put, put_requests(PIXAR, "posters/evil", tim), C.PERMISSION_DENIED, metadata=pizza)
            refused(stub.Get, a.GetRequest(bundle_id=PIZZA, name="posters/coco"), C.NOT_FOUND, "posters/coco",
                    metadata=pizza)
            refused(stub.Get, a.GetRequest(bundle_id=PIZZA, name=f"../{PIXAR}/posters/coco"), C.INVALID_ARGUMENT, "name",
                    metadata=pizza)
            assert get(stub, PIXAR, "posters/coco")[1] == coco
            refused(stub.Get, a.GetRequest(bundle_id=PIXAR, name="posters/coco"), C.UNAUTHENTICATED,
                    metadata=_bearer("not-a-token"))
            assert _code(stub.RegisterApp, a.RegisterAppRequest(manifest=manifest_pb2.AppManifest(bundle_id="x.y")),
                         metadata=pixar) == C.PERMISSION_DENIED

            # Deduplicated across apps: one file, gone with the last name.
            again = put(stub, PIZZA, "drivers/tim", tim, metadata=pizza)
            assert again.deduplicated and again.asset.sha256 == sha(tim)
            assert blob_files(tmp_path) == {sha(coco), sha(tim)}
            assert not stub.Delete(a.DeleteRequest(bundle_id=PIXAR, name="drivers/tim"), metadata=pixar,
                                   timeout=RPC_TIMEOUT).blob_deleted
            assert get(stub, PIZZA, "drivers/tim", metadata=pizza)[1] == tim
            assert stub.Delete(a.DeleteRequest(bundle_id=PIZZA, name="drivers/tim"), metadata=pizza,
                               timeout=RPC_TIMEOUT).blob_deleted
            assert blob_files(tmp_path) == {sha(coco)}
            refused(stub.Get, a.GetRequest(bundle_id=PIZZA, name="drivers/tim"), C.NOT_FOUND, metadata=pizza)

            # The budget (60,000 bytes): the current entry pins the poster; the next puts
            # evict least recently used unpinned blobs, never the pinned one.
            pinned = stub.Pin(a.PinRequest(bundle_id=PIXAR, holder="widget:1", names=["posters/coco"]), metadata=pixar,
                              timeout=RPC_TIMEOUT)
            assert list(pinned.evicted) == []
            frames = [png(64, 64, filler=15000, seed=i) for i in range(3)]
            for i, frame in enumerate(frames):
                put(stub, PIXAR, f"frames/{i}", frame, metadata=pixar)
            states = {x.name: x for x in stub.List(a.ListRequest(bundle_id=PIXAR), metadata=pixar,
                                                   timeout=RPC_TIMEOUT).assets}
            assert states["posters/coco"].pinned and not states["posters/coco"].evicted
            assert states["frames/0"].evicted and not states["frames/2"].evicted
            assert sha(frames[0]) not in blob_files(tmp_path)  # the evicted blob's file is gone
            assert blob_files(tmp_path) == {sha(coco), sha(frames[1]), sha(frames[2])}
            refused(stub.Get, a.GetRequest(bundle_id=PIXAR, name="frames/0"), C.NOT_FOUND, "evicted", metadata=pixar)

            # Prefetch: what the next entries need; the present ones count as read.
            hint = stub.Prefetch(a.PrefetchRequest(bundle_id=PIXAR, names=["frames/1", "frames/0", "frames/9"]),
                                 metadata=pixar, timeout=RPC_TIMEOUT)
            assert (list(hint.present), list(hint.evicted), list(hint.unknown)) == (["frames/1"], ["frames/0"], ["frames/9"])
            put(stub, PIXAR, "frames/0", frames[0], metadata=pixar)  # frames/2 is now the least recently used
            states = {x.name: x for x in stub.List(a.ListRequest(bundle_id=PIXAR), metadata=pixar,
                                                   timeout=RPC_TIMEOUT).assets}
            assert not states["frames/1"].evicted and states["frames/2"].evicted

            # Pinned blobs leave no room for a big one: RESOURCE_EXHAUSTED until released.
            stub.Pin(a.PinRequest(bundle_id=PIXAR, holder="activity:1", names=["frames/0", "frames/1"]), metadata=pixar,
                     timeout=RPC_TIMEOUT)
            big = png(64, 64, filler=30000, seed=9)
            refused(stub.Put, put_requests(PIXAR, "big", big), C.RESOURCE_EXHAUSTED, "size", metadata=pixar)
            released = stub.Unpin(a.UnpinRequest(bundle_id=PIXAR, holder="activity:1"), metadata=pixar, timeout=RPC_TIMEOUT)
            assert released.released == 2
            put(stub, PIXAR, "big", big, metadata=pixar)
            assert staging_files(tmp_path) == []

            # The Clock of the stack is served too.
            assert not clock_pb2_grpc.ClockStub(channel).Now(clock_pb2.NowRequest(), timeout=RPC_TIMEOUT).manual
    finally:
        code = service.stop()
    assert code == 0, service.stderr()


def test_acknowledged_writes_survive_kill_9(tmp_path):
    """Every acknowledged Put, Delete and Pin is there after SIGKILL and a restart on the
    same data directory: the same bytes under the same names, the token, the pins."""
    service = start(tmp_path, "--budget-bytes", "200000")
    images = {f"frames/{i}": png(80, 60, filler=9000, seed=i) for i in range(6)}
    images["posters/coco"] = jpeg(300, 200, exif=4000)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            stub = asset_pb2_grpc.AssetServiceStub(channel)
            pixar = register(stub, PIXAR)
            for name, data in images.items():
                put(stub, PIXAR, name, data, metadata=pixar, chunk=1000)
            stub.Delete(a.DeleteRequest(bundle_id=PIXAR, name="frames/5"), metadata=pixar, timeout=RPC_TIMEOUT)
            del images["frames/5"]
            stub.Pin(a.PinRequest(bundle_id=PIXAR, holder="widget:3", names=["posters/coco"]), metadata=pixar,
                     timeout=RPC_TIMEOUT)
            before = {x.name: x for x in stub.List(a.ListRequest(bundle_id=PIXAR), metadata=pixar,
                                                   timeout=RPC_TIMEOUT).assets}
            files = blob_files(tmp_path)

        service.process.kill()  # SIGKILL: no shutdown, no checkpoint
        service.process.wait(timeout=60)
        service.stop()
        service = start(tmp_path, "--budget-bytes", "200000")

        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            stub = asset_pb2_grpc.AssetServiceStub(channel)
            after = {x.name: x for x in stub.List(a.ListRequest(bundle_id=PIXAR), metadata=pixar,
                                                  timeout=RPC_TIMEOUT).assets}
            assert after == before
            assert set(after) == set(images)
            for name, data in images.items():
                header, got = get(stub, PIXAR, name, metadata=pixar)
                assert got == data, name
                assert header.asset.sha256 == sha(data)
            assert after["posters/coco"].pinned
            assert blob_files(tmp_path) == files == {sha(d) for d in images.values()}
            refused(stub.Get, a.GetRequest(bundle_id=PIXAR, name="frames/5"), C.NOT_FOUND, metadata=pixar)
    finally:
        code = service.stop()
    assert code == 0, service.stderr()


def test_malformed_protobuf_on_every_asset_method_is_refused_clearly(tmp_path):
    service = start(tmp_path, "--clock", "manual")
    try:
        assert_malformed_protobuf_refused(service, a.DESCRIPTOR.services_by_name["AssetService"], 13)
    finally:
        assert service.stop() == 0, service.stderr()


def test_bad_input_is_refused_naming_the_field(tmp_path):
    service = start(tmp_path)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            stub = asset_pb2_grpc.AssetServiceStub(channel)
            pixar = register(stub, PIXAR)
            image = png(100, 100)
            put(stub, PIXAR, "ok", image, metadata=pixar)

            def headers(*messages):
                return iter(messages)

            def chunks(data, size=100):
                return [a.PutRequest(chunk=data[i:i + size]) for i in range(0, len(data), size)]

            header = a.PutHeader(bundle_id=PIXAR, name="x", use=Use.USE_WIDGET, sha256=sha(image), size=len(image))

            def with_header(**changes):
                h = a.PutHeader()
                h.CopyFrom(header)
                for key, value in changes.items():
                    setattr(h, key, value)
                return a.PutRequest(header=h)

            gif = b"GIF89a" + bytes(100)
            huge = png(1024, 1024)
            poster = jpeg(500, 500)
            cases = [
                ("empty Put", headers(), C.INVALID_ARGUMENT, "header"),
                ("chunks first", headers(*chunks(image)), C.INVALID_ARGUMENT, "header"),
                ("header only", headers(with_header()), C.INVALID_ARGUMENT, "size"),
                ("wrong hash", headers(with_header(sha256=sha(b"other")), *chunks(image)), C.INVALID_ARGUMENT, "sha256"),
                ("hash not hex", headers(with_header(sha256="coco"), *chunks(image)), C.INVALID_ARGUMENT, "sha256"),
                ("chunk past the declared size", headers(with_header(size=len(image) - 1), *chunks(image)),
                 C.INVALID_ARGUMENT, "chunk", "past the declared size"),
                ("fewer bytes than declared", headers(with_header(size=len(image) + 1), *chunks(image)),
                 C.INVALID_ARGUMENT, "size"),
                ("oversize", headers(with_header(size=11 << 20)), C.INVALID_ARGUMENT, "size", "limit"),
                ("no size", headers(with_header(size=0), *chunks(image)), C.INVALID_ARGUMENT, "size"),
                ("not PNG or JPEG", headers(with_header(sha256=sha(gif), size=len(gif)), *chunks(gif)),
                 C.INVALID_ARGUMENT, "chunk", "GIF"),
                ("widget area over the limit", headers(with_header(sha256=sha(huge), size=len(huge)), *chunks(huge)),
                 C.INVALID_ARGUMENT, "chunk", "718080"),
                ("too large for the minimal presentation",
                 headers(with_header(sha256=sha(poster), size=len(poster), use=Use.USE_LIVE_ACTIVITY_MINIMAL), *chunks(poster)),
                 C.INVALID_ARGUMENT, "chunk", "minimal"),
                ("no use", headers(with_header(use=Use.USE_UNSPECIFIED), *chunks(image)), C.INVALID_ARGUMENT, "use"),
                ("a second header", headers(with_header(), *chunks(image)[:1], with_header()), C.INVALID_ARGUMENT, "header"),
                ("path traversal", headers(with_header(name="../x"), *chunks(image)), C.INVALID_ARGUMENT, "name"),
                ("no name", headers(with_header(name=""), *chunks(image)), C.INVALID_ARGUMENT, "name"),
            ]
            for label, requests, code, *words in cases:
                details = refused(stub.Put, requests, code, *words, metadata=pixar)
                assert details.split(":")[0] in ("header", "size", "sha256", "chunk", "use", "name", "bundle_id"), (label, details)

            # An app that was never registered (asked by the device: an app's token would not reach it).
            refused(stub.Put, headers(with_header(bundle_id="com.example.none"), *chunks(image)), C.NOT_FOUND,
                    "bundle_id", "com.example.none")
            refused(stub.Get, a.GetRequest(bundle_id=PIXAR, name="nope"), C.NOT_FOUND, "name", "nope", metadata=pixar)
            refused(stub.Get, a.GetRequest(bundle_id=PIXAR, name="ok", chunk_size=7), C.INVALID_ARGUMENT, "chunk_size",
                    metadata=pixar)
            refused(stub.Get, a.GetRequest(bundle_id=PIXAR, name="ok", if_none_match="yesterday"), C.INVALID_ARGUMENT,
                    "if_none_match", metadata=pixar)
            refused(stub.Get, a.GetRequest(bundle_id="", name="ok"), C.INVALID_ARGUMENT, "bundle_id")
            refused(stub.Stat, a.StatRequest(bundle_id=PIXAR, name="nope"), C.NOT_FOUND, "name", metadata=pixar)
            refused(stub.Delete, a.DeleteRequest(bundle_id=PIXAR, name="nope"), C.NOT_FOUND, "name", metadata=pixar)
            refused(stub.Pin, a.PinRequest(bundle_id=PIXAR, holder="widget:1", names=["ok", "nope"]), C.NOT_FOUND,
                    "names[1]", metadata=pixar)
            refused(stub.Pin, a.PinRequest(bundle_id=PIXAR, names=["ok"]), C.INVALID_ARGUMENT, "holder", metadata=pixar)
            refused(stub.Unpin, a.UnpinRequest(bundle_id=PIXAR), C.INVALID_ARGUMENT, "holder", metadata=pixar)
            refused(stub.Prefetch, a.PrefetchRequest(bundle_id=PIXAR, names=["a//b"]), C.INVALID_ARGUMENT, "names[0]",
                    metadata=pixar)
            refused(stub.UnregisterApp, a.UnregisterAppRequest(bundle_id="com.example.none"), C.NOT_FOUND, "bundle_id")
            refused(stub.RegisterApp, a.RegisterAppRequest(), C.INVALID_ARGUMENT, "manifest")
            refused(stub.RegisterApp, a.RegisterAppRequest(manifest=manifest_pb2.AppManifest(bundle_id="a/b")),
                    C.INVALID_ARGUMENT, "manifest.bundle_id")
            refused(stub.RegisterApp, a.RegisterAppRequest(manifest=manifest_pb2.AppManifest(bundle_id=PIXAR)),
                    C.ALREADY_EXISTS, PIXAR)
            # Nothing was stored by any of it, nothing is left staged, and the server serves.
            assert blob_files(tmp_path) == {sha(image)}
            assert staging_files(tmp_path) == []
            assert get(stub, PIXAR, "ok", metadata=pixar)[1] == image
    finally:
        code = service.stop()
    assert code == 0, service.stderr()


def mutate(data, rng):
    """Bytes flipped, bent, inserted, cut or truncated in the header, or a foreign signature."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        head = min(len(data), 48)
        kind = rng.randrange(6)
        if kind == 0 and head:
            data[rng.randrange(head)] ^= rng.randint(1, 255)
        elif kind == 1 and head:
            data[rng.randrange(head)] = rng.choice([0x00, 0xFF, 0xD8, 0xD9, 0xDA, 0xC0, 0x89])
        elif kind == 2:
            del data[rng.randint(0, len(data)):]
        elif kind == 3:
            at = rng.randint(0, head)
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 6)))
        elif kind == 4 and len(data) > 24:
            at = rng.randint(8, min(len(data) - 2, 40))
            data[at:at + 2] = bytes([rng.randrange(256), rng.randrange(256)])
        else:
            signature = rng.choice([b"GIF89a", b"RIFF\0\0\0\0WEBP", b"BM", b"<svg", b"\xff\xd8\xff", b"\x89P"])
            data[:len(signature)] = signature
    return bytes(data)


def test_fuzzed_chunks_through_the_real_server(tmp_path):
    """Mutated PNG/JPEG headers in random chunk sequences: each Put is accepted (and reads
    back byte for byte) or refused INVALID_ARGUMENT naming a field; the server never
    fails, keeps nothing staged, and stores exactly the accepted blobs."""
    rng = random.Random(7704)
    bases = [png(100, 80), png(847, 847), png(848, 847), jpeg(640, 480), jpeg(1024, 1024, exif=700), jpeg(135, 110)]
    uses = [Use.USE_WIDGET, Use.USE_WIDGET, Use.USE_LIVE_ACTIVITY_MINIMAL, Use.USE_LIVE_ACTIVITY_LOCK_SCREEN]
    service = start(tmp_path)
    accepted = {}
    codes = {}
    try:
        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            stub = asset_pb2_grpc.AssetServiceStub(channel)
            token = register(stub, PIXAR)
            for n in range(300):
                data = rng.choice(bases)
                if rng.random() < 0.75:
                    data = mutate(data, rng)
                declared = sha(data) if rng.random() < 0.9 else sha(b"other")
                size = max(1, len(data) + (rng.randint(-3, 3) if rng.random() < 0.1 else 0))
                cuts = sorted(rng.randint(0, len(data)) for _ in range(rng.randint(0, 8)))
                requests = [a.PutRequest(header=a.PutHeader(bundle_id=PIXAR, name=f"fuzz/{n}", use=rng.choice(uses),
                                                            sha256=declared, size=size))]
                requests += [a.PutRequest(chunk=data[at:cut]) for at, cut in zip([0] + cuts, cuts + [len(data)])]
                try:
                    stub.Put(iter(requests), metadata=token, timeout=RPC_TIMEOUT)
                except grpc.RpcError as error:
                    codes[error.code()] = codes.get(error.code(), 0) + 1
                    assert error.code() == C.INVALID_ARGUMENT, (n, error.code(), error.details())
                    assert error.details().split(":")[0] in ("chunk", "size", "sha256"), (n, error.details())
                    continue
                codes[C.OK] = codes.get(C.OK, 0) + 1
                assert data[:8] == b"\x89PNG\r\n\x1a\n" or data[:2] == b"\xff\xd8", n
                assert declared == sha(data) and size == len(data), n
                accepted[f"fuzz/{n}"] = data
            for name, data in accepted.items():
                assert get(stub, PIXAR, name, metadata=token)[1] == data, name
            assert blob_files(tmp_path) == {sha(d) for d in accepted.values()}
            assert staging_files(tmp_path) == []
    finally:
        code = service.stop()
    assert code == 0, service.stderr()
    assert codes.get(C.OK, 0) > 30 and codes.get(C.INVALID_ARGUMENT, 0) > 30, codes


@pytest.mark.parametrize("argv,env,words", [
    (["--budget-bytes", "lots"], {}, ["--budget-bytes", '"lots"', "from --budget-bytes"]),
    (["--budget-bytes", "0"], {}, ["--budget-bytes", "positive"]),
    ([], {"GLIMPSE_BUDGET_BYTES": "-5"}, ["--budget-bytes", "from GLIMPSE_BUDGET_BYTES"]),
])
def test_a_bad_budget_fails_fast_naming_the_flag(tmp_path, argv, env, words):
    result = subprocess.run([_binary("glimpse-asset"), "--port", "0", "--data-dir", str(tmp_path / "asset"), *argv],
                            env={**os.environ, **env}, capture_output=True, text=True, timeout=30)
    assert result.returncode != 0
    assert "listening" not in result.stdout
    for word in words:
        assert word in result.stderr, (word, result.stderr)
