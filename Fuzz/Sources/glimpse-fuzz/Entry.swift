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
        let message = "glimpse-fuzz: set GLIMPSE_FUZZ_TARGET to one of: \(names) (got \"\(name)\")\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
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

// SwiftPM links an executable with its entry point renamed (`main` = `glimpse_fuzz_main`,
// so that tests can link the module): that name hands over to libFuzzer's driver, which is
// what libFuzzer's own `main` would run.
@_extern(c, "LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

@_cdecl("glimpse_fuzz_main")
public func glimpseFuzzMain(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzerTestOneInput(data, size) }
}
