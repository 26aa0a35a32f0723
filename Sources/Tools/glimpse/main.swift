// glimpse: the command-line tool that drives glimpse-gateway (the device). The logic is in
// the GlimpseCLI library; `glimpse --help` lists the commands.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GlimpseCLI

exit(await GlimpseTool.main())
