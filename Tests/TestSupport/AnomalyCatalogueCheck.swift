import Foundation
import Tables

/// What the anomaly-catalogue tests of the format libraries read from the package's own files: a tool's page, a
/// catalogue's source, the code literals of a library and its tool.
public enum AnomalyCatalogueCheck {
    /// One row of a tool page's "Anomaly codes" table.
    public struct DocumentedCode: Equatable, Sendable, CustomStringConvertible {
        public var code: String
        public var severity: String
        public var meaning: String
        public var description: String { "\(code) (\(severity)): \(meaning)" }
    }

    /// The rows of the table in the `## Anomaly codes` section of `docs/<tool>.md`, in order; throws when the page or
    /// the section is missing.
    public static func documentedCodes(tool: String) throws -> [DocumentedCode] {
        let page = TestSupport.packageRoot.appendingPathComponent("docs/\(tool).md")
        let lines = try String(contentsOf: page, encoding: .utf8).components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "## Anomaly codes") else {
            throw Missing(what: "a '## Anomaly codes' section in docs/\(tool).md")
        }
        let section = lines[(start + 1)...].prefix { !$0.hasPrefix("## ") }
        let row = /^\| `([^`]*)` \| ([a-z]+) \| (.*) \|$/
        return section.compactMap { line in
            line.wholeMatch(of: row).map { DocumentedCode(code: String($0.1), severity: String($0.2), meaning: String($0.3)) }
        }
    }

    /// The row a catalogue entry should have on its tool's page.
    public static func documented(_ entry: AnomalyCode) -> DocumentedCode {
        DocumentedCode(code: entry.code, severity: entry.severity.rawValue, meaning: entry.meaning)
    }

    /// The entries declared in a catalogue source file, `static let <name> = AnomalyCode("<code>", …`, in order.
    public static func declarations(in relativePath: String) throws -> [(name: String, code: String)] {
        let text = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent(relativePath), encoding: .utf8)
        return text.matches(of: /static let (\w+) = AnomalyCode\("([^"]*)"/).map { (String($0.1), String($0.2)) }
    }

    /// The Swift files under `Sources/<folder>` (subfolders included) for each folder, as (path relative to the
    /// package, text).
    public static func sources(_ folders: [String]) throws -> [(path: String, text: String)] {
        var files: [(String, String)] = []
        for folder in folders {
            let url = TestSupport.packageRoot.appendingPathComponent("Sources/\(folder)")
            let names = try FileManager.default.subpathsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".swift") }.sorted()
            guard !names.isEmpty else { throw Missing(what: "Swift files in Sources/\(folder)") }
            for name in names {
                files.append(("Sources/\(folder)/\(name)",
                              try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)))
            }
        }
        return files
    }

    /// Every string literal in `text` that is a code by itself, `"E_…"`, `"W_…"` or `"I_…"`.
    public static func codeLiterals(in text: String) -> [String] {
        text.matches(of: /"([EWI]_[A-Z0-9_]+)"/).map { String($0.1) }
    }

    /// What is wrong with a catalogue against the code: an entry declared in `file` but left out of `catalogue` (or
    /// listed twice), a code-like string literal in `Sources/<folder>` for `folders` that is no entry, an entry that
    /// no other file refers to (`.<name>` or `AnomalyCode.<name>`). Empty when nothing is.
    public static func sourceProblems(catalogue: [AnomalyCode], file: String, folders: [String]) throws -> [String] {
        var problems: [String] = []
        let declared = try declarations(in: file)
        if declared.isEmpty { problems.append("\(file) declares no AnomalyCode") }
        let listed = catalogue.map(\.code)
        for (name, code) in declared where listed.filter({ $0 == code }).count != 1 {
            problems.append("\(code) (\(name)) is listed \(listed.filter { $0 == code }.count) times in the catalogue")
        }
        for code in listed where !declared.contains(where: { $0.code == code }) {
            problems.append("\(code) of the catalogue is not declared in \(file)")
        }
        let others = try sources(folders).filter { $0.path != file }
        for (path, text) in others {
            for code in codeLiterals(in: text) where !listed.contains(code) {
                problems.append("\(path) writes \"\(code)\", which is not in the catalogue")
            }
        }
        for (name, code) in declared {
            let reference = try Regex("\\.\(name)(?![A-Za-z0-9_])")
            if !others.contains(where: { $0.text.contains(reference) }) {
                problems.append("\(code) (.\(name)) is used by no file outside \(file)")
            }
        }
        return problems
    }

    /// What is wrong with a tool page's "Anomaly codes" table against a catalogue: a code missing, extra or out of
    /// order, or a severity or meaning that is not the catalogue's. Empty when nothing is.
    public static func pageProblems(catalogue: [AnomalyCode], tool: String) throws -> [String] {
        let rows = try documentedCodes(tool: tool)
        let expected = catalogue.map(documented)
        var problems: [String] = []
        if rows.isEmpty { problems.append("docs/\(tool).md: the Anomaly codes section has no table rows") }
        for entry in expected where !rows.contains(entry) {
            problems.append("docs/\(tool).md lacks the row of \(entry)")
        }
        for row in rows where !expected.contains(row) {
            problems.append("docs/\(tool).md has a row the catalogue lacks: \(row)")
        }
        if problems.isEmpty && rows != expected { problems.append("docs/\(tool).md lists the codes in another order") }
        return problems
    }

    /// A file or section the check needs is absent.
    public struct Missing: Error, CustomStringConvertible {
        public var what: String
        public var description: String { "missing: \(what)" }
    }
}
