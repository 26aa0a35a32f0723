#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Child processes by `posix_spawn`: the stack's executables (each in a session of its
/// own when detached, so closing the terminal does not stop them) and short tools such as
/// rsvg-convert.
enum Processes {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `executable` with `arguments`; standard output and error go to `log`
    /// (appended), standard input reads /dev/null. Returns the pid.
    static func spawn(
        _ executable: String, _ arguments: [String], log: String, environment: [String: String] = [:],
        newSession: Bool
    ) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A fresh signal mask and default handlers: the parent's Ctrl-C handling is not inherited.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if newSession { flags |= 0x80 }  // POSIX_SPAWN_SETSID (glibc ≥ 2.26)
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var merged: [String: String] = [:]
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                merged[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            index += 1
        }
        merged.merge(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw Failure(description: "\(executable): \(String(cString: strerror(status)))")
        }
        return pid
    }

    /// Runs `executable` to completion; its exit status (standard output and error to `log`).
    static func run(_ executable: String, _ arguments: [String], log: String = "/dev/null") throws(Failure) -> Int32 {
        let pid = try spawn(executable, arguments, log: log, newSession: false)
        return wait(pid)
    }

    /// Waits for a child to exit; its exit status (128 + signal when killed).
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        return exitStatus(status)
    }

    /// A child's exit status if it has exited (without waiting), else nil.
    static func exited(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid { return exitStatus(status) }
        if result < 0, errno == ECHILD { return alive(pid) ? nil : 0 }
        return nil
    }

    /// Whether a process exists (any process, not only a child).
    static func alive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// The command line of a process, from /proc (empty when it is gone).
    static func commandLine(_ pid: pid_t) -> String {
        guard let bytes = try? Files.read("/proc/\(pid)/cmdline") else { return "" }
        return String(decoding: bytes.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
    }

    /// The first executable named `name` on PATH.
    static func which(_ name: String, path: String) -> String? {
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    private static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
