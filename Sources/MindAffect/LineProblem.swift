import Tables

/// Why one line could not be read (spec §6.1): an `E_…` code, the column and what was expected.
public struct LineProblem: Error, Sendable, Equatable {
    /// `E_PREFIX`, `E_SYNTAX`, `E_SHAPE`, `E_FLOAT` or `E_NCH` (``MindAffectAnomalies``).
    public var anomalyCode: AnomalyCode
    /// The 1-based column where reading stopped, where known.
    public var column: Int?
    /// What was expected and what was found.
    public var message: String

    /// The code as written, e.g. `E_SHAPE`.
    public var code: String { anomalyCode.code }

    public init(code: AnomalyCode, column: Int?, message: String) {
        self.anomalyCode = code
        self.column = column
        self.message = message
    }

    static func prefix(_ scanner: LineScanner, _ expected: String) -> LineProblem {
        LineProblem(code: .prefix, column: scanner.column,
                    message: "expected \(expected) (line prefix `rts:<int> sts:<int>  t:<NAME> ts:<int>`), found \(scanner.remainderForMessage)")
    }

    static func syntax(_ scanner: LineScanner, _ name: String, _ expected: String) -> LineProblem {
        LineProblem(code: .syntax, column: scanner.column,
                    message: "\(name): expected \(expected), found \(scanner.remainderForMessage)")
    }

    static func number(_ scanner: LineScanner, _ name: String) -> LineProblem {
        LineProblem(code: .float, column: scanner.column,
                    message: "\(name): expected a Java float or int, found \(scanner.remainderForMessage)")
    }

    static func shape(_ scanner: LineScanner, _ name: String, _ text: String) -> LineProblem {
        LineProblem(code: .shape, column: scanner.column, message: "\(name): \(text)")
    }
}
