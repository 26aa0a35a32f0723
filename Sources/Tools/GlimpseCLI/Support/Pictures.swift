/// SVG and PNG files of what the gateway drew. PNG goes through rsvg-convert (Debian's
/// librsvg2-bin), which `scripts/bootstrap.sh` installs.
enum Pictures {
    static func write(svg: String, to path: String) throws(CLIFailure) {
        do { try Files.write(Array(svg.utf8), to: path) } catch {
            throw CLIFailure.local("cannot write \(error.description)")
        }
    }

    static func writePNG(
        svg: String, to path: String, environment: [String: String] = Current.context.environment
    ) throws(CLIFailure) {
        guard
            let converter = Processes.which("rsvg-convert", path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
        else {
            throw CLIFailure.local("PNG needs rsvg-convert: apt-get install librsvg2-bin (or use --format svg)")
        }
        let svgPath = path + ".svg-\(Int.random(in: 0..<1_000_000))"
        try write(svg: svg, to: svgPath)
        defer { _ = Files.remove(svgPath) }
        let status: Int32
        do { status = try Processes.run(converter, ["-o", path, svgPath]) } catch {
            throw CLIFailure.local(error.description)
        }
        guard status == 0 else { throw CLIFailure.local("rsvg-convert failed (exit \(status)) writing \(path)") }
    }
}
