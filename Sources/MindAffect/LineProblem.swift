/// Why one line could not be read (spec §6.1): an `E-…` code, the column and what was expected.
public struct LineProblem: Error, Sendable, Equatable {
    /// `E_PREFIX`, `E_SYNTAX`, `E_SHAPE`, `E_FLOAT` or `E_NCH`.
    public var code: String
    /// The 1-based column where reading stopped, where known.
    public var column: Int?
    /// What was expected and what was found.
    public var message: String

    public init(code: String, column: Int?, message: String) {
        self.code = code
        self.column = column
        self.message = message
    }

    static func prefix(_ scanner: LineScanner, _ expected: String) -> LineProblem {
        LineProblem(code: "E_PREFIX", column: scanner.column,
                    message: "expected \(expected) (line prefix `rts:<int> sts:<int>  t:<NAME> ts:<int>`), found \(scanner.remainderForMessage)")
    }

    static func syntax(_ scanner: LineScanner, _ name: String, _ expected: String) -> LineProblem {
        LineProblem(code: "E_SYNTAX", column: scanner.column,
                    message: "\(name): expected \(expected), found \(scanner.remainderForMessage)")
    }

    static func number(_ scanner: LineScanner, _ name: String) -> LineProblem {
        LineProblem(code: "E_FLOAT", column: scanner.column,
                    message: "\(name): expected a Java float or int, found \(scanner.remainderForMessage)")
    }

    static func shape(_ scanner: LineScanner, _ name: String, _ text: String) -> LineProblem {
        LineProblem(code: "E_SHAPE", column: scanner.column, message: "\(name): \(text)")
    }
}
