import PostgresStore
import Testing

@Suite struct PostgresAddressTests {
    @Test("a postgres URL gives host, port (5432 when absent), user, password, database and TLS")
    func parsesTheURL() throws {
        let full = try PostgresAddress(url: "postgres://glimpse:s%40cret@db.internal:6543/glimpse?sslmode=require")
        #expect(full.host == "db.internal")
        #expect(full.port == 6543)
        #expect(full.user == "glimpse")
        #expect(full.password == "s@cret")
        #expect(full.database == "glimpse")
        #expect(full.requireTLS)
        let plain = try PostgresAddress(url: "postgresql://app@127.0.0.1/state")
        #expect(plain.port == 5432)
        #expect(plain.password == nil)
        #expect(!plain.requireTLS)
    }

    @Test("what logs show of an address has no password")
    func describesWithoutThePassword() throws {
        let address = try PostgresAddress(url: "postgres://glimpse:hunter2@h:5432/db")
        #expect("\(address)" == "postgres://glimpse@h:5432/db")
    }

    @Test(
        "a URL that names no PostgreSQL database is refused, saying what is missing and not echoing its password",
        arguments: [
            ("mysql://u:hunter2@h/db", "not a postgres://"),
            ("postgres://u:hunter2@h", "no database"),
            ("postgres://h/db", "no user"),
            ("postgres://u:hunter2@h/db?sslmode=maybe", "sslmode=maybe"),
            ("postgres://u:hunter2@h/db?timeout=3", "unknown parameter timeout"),
        ])
    func refusesWhatIsNoDatabase(url: String, said: String) {
        do {
            _ = try PostgresAddress(url: url)
            Issue.record("\(url) was taken")
        } catch {
            #expect(error.description.contains(said), "\(error)")
            #expect(!error.description.contains("hunter2"), "\(error)")
        }
    }

    @Test("each service's lease key is its own and stable across builds (FNV-1a)")
    func leaseKeys() {
        #expect(PostgresJournal.fnv1a("") == 2_166_136_261)
        #expect(PostgresJournal.fnv1a("a") == 0xe40c_292c)
        #expect(Set(["timeline", "intent", "activity"].map(PostgresJournal.fnv1a)).count == 3)
    }
}
