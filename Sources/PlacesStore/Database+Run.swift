import GRDB

extension Database {
    /// Executes `sql` through the statement cache (the materializer runs the same few
    /// statements for every op).
    func run(sql: String, arguments: StatementArguments) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
