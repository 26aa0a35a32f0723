#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FuzzTargets

// libFuzzer's entry points (linked with `-sanitize=fuzzer`, which brings `main`). The
// target is named by GLIMPSE_FUZZ_TARGET; Fuzz/run.sh sets it.

/// The target this process fuzzes, read once.
private let selected: FuzzTarget = {
    let name = getenv("GLIMPSE_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget.named(name) else {
        let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
        fputs("glimpse-fuzz: set GLIMPSE_FUZZ_TARGET to one of: \(names) (got \"\(name)\")\n", stderr)
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    _ = selected  // an unknown target fails before the first input
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size > 0 ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    selected.run(bytes)
    return 0
}
