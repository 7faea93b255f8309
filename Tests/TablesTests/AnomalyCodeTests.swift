import Brainiac
import BrainTracker
import Foundation
import InteractLog
import MindAffect
import MYND
import Tables
import Testing

/// The shared anomaly vocabulary (conventions §3.2): the catalogues' spelling, the severity rule and the `raw` rule.
@Suite("Anomaly codes and raw text")
struct AnomalyCodeTests {
    static let catalogues: [(tool: String, codes: [AnomalyCode])] = [
        ("bt-decode", BrainiacAnomalies.catalogue), ("ilog-parse", InteractLogAnomalies.catalogue),
        ("rt-stats", BrainTrackerAnomalies.catalogue), ("mynd-parse", MYNDAnomalies.catalogue),
        ("nt-analyze", MindAffectAnomalies.catalogue),
    ]

    @Test("Every catalogue code is spelled ^[EWI]_[A-Z0-9_]+$, unique in its catalogue, with the prefix's severity and a sentence",
          arguments: 0..<5)
    func spelling(index: Int) throws {
        let (tool, codes) = Self.catalogues[index]
        #expect(!codes.isEmpty, "\(tool)")
        let pattern = try NSRegularExpression(pattern: "^[EWI]_[A-Z0-9_]+$")
        for entry in codes {
            let range = NSRange(entry.code.startIndex..., in: entry.code)
            #expect(pattern.firstMatch(in: entry.code, range: range)?.range == range, "\(tool): \(entry.code)")
            let expected: AnomalySeverity = switch entry.code.first {
            case "E": .error
            case "W": .warning
            default: .info
            }
            #expect(entry.severity == expected, "\(tool): \(entry.code)")
            #expect(entry.meaning.hasSuffix(".") || entry.meaning.hasSuffix("?") || entry.meaning.hasSuffix(")."),
                    "\(tool): \(entry.code) meaning \(entry.meaning)")
            #expect(entry.meaning.count > 15 && !entry.meaning.contains("|") && !entry.meaning.contains("\n"), "\(tool): \(entry.code)")
        }
        let duplicates = Dictionary(grouping: codes.map(\.code), by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(duplicates == [], "\(tool)")
    }

    @Test("Code spelling and prefix severity")
    func prefixRule() {
        #expect(AnomalyCode.isWellFormed("W_RESYNC") && AnomalyCode.isWellFormed("I_GAP") && AnomalyCode.isWellFormed("E_NCH"))
        #expect(AnomalyCode.isWellFormed("W_ROW0"))
        for bad in ["gap", "W-GAP", "W_", "w_gap", "X_GAP", "W_gap", "W_GAP ", "WGAP", "W_GÄP", ""] {
            #expect(!AnomalyCode.isWellFormed(bad), "\(bad)")
        }
        #expect(AnomalyCode.severity(ofCode: "E_X") == .error && AnomalyCode.severity(ofCode: "W_X") == .warning)
        #expect(AnomalyCode.severity(ofCode: "I_X") == .info && AnomalyCode.severity(ofCode: "gap") == nil)
        let code = AnomalyCode("W_SOMETHING_ODD", meaning: "Something odd.")
        #expect(code.severity == .warning && code.code == "W_SOMETHING_ODD" && "\(code)" == "W_SOMETHING_ODD")
    }

    @Test("A row built from a code takes the code's severity")
    func rowSeverity() {
        let note = Anomaly(sourceFile: "x", code: AnomalyCode("I_NOTE", meaning: "A note."), message: "m")
        let error = Anomaly(sourceFile: "x", line: 3, location: "7", code: AnomalyCode("E_BAD", meaning: "Bad."), message: "m",
                            raw: "r")
        #expect(note.severity == .info && note.code == "I_NOTE" && note.raw == nil)
        #expect(error.severity == .error && error.code == "E_BAD" && error.line == 3 && error.location == "7" && error.raw == "r")
        let text = Anomaly(sourceFile: "x", severity: .warning, code: "W_TEXT", message: "m")
        #expect(text.severity == .warning && text.code == "W_TEXT")
    }

    @Test("A row whose severity contradicts its code's prefix stops the program")
    func contradictionTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Anomaly(sourceFile: "x", severity: .warning, code: "I_GAP", message: "m")
        }
        await #expect(processExitsWith: .failure) {
            _ = Anomaly(sourceFile: "x", severity: .info, code: "gap", message: "m")
        }
    }

    @Test("raw: control characters but tab escaped as \\u{…}, noncharacters too; other text untouched")
    func rawEscaping() {
        #expect(Anomaly.rawText("plain, \"quoted\" text; ünïcödé 🧠") == "plain, \"quoted\" text; ünïcödé 🧠")
        #expect(Anomaly.rawText("a\tb") == "a\tb")
        #expect(Anomaly.rawText("a\rb\nc\r\nd") == "a\\u{D}b\\u{A}c\\u{D}\\u{A}d")
        #expect(Anomaly.rawText("\u{1B}[0m\u{0}\u{7F}") == "\\u{1B}[0m\\u{0}\\u{7F}")
        #expect(Anomaly.rawText("x\u{85}y\u{9F}") == "x\\u{85}y\\u{9F}")                  // C1 controls
        #expect(Anomaly.rawText("key\u{FFFF}:1") == "key\\u{FFFF}:1")                       // a key without a character
        #expect(Anomaly.rawText("back\\slash \\u{41}") == "back\\slash \\u{41}")            // kept as it is
        let row = Anomaly(sourceFile: "x", code: AnomalyCode("W_X", meaning: "X."), message: "m", raw: "a\nb")
        #expect(row.raw == "a\\u{A}b")
    }

    @Test("raw: the escaped scalars are exactly Unicode's controls (category Cc) but tab and its noncharacters, over every scalar")
    func rawEscapedSetIsUnicodes() {
        var mismatches: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }   // surrogates are not scalars
            let byProperties = (scalar.properties.generalCategory == .control && scalar != "\t")
                || scalar.properties.isNoncharacterCodePoint
            let text = String(Character(scalar))
            let escaped = Anomaly.rawText(text) == "\\u{" + String(value, radix: 16, uppercase: true) + "}"
            if escaped != byProperties || (!escaped && Anomaly.rawText(text) != text) { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty, "scalars escaped otherwise than Unicode's properties say: \(mismatches.prefix(10))")
    }

    @Test("raw: at most 200 characters, cut between characters and never inside an escape")
    func rawCutting() {
        #expect(Anomaly.rawLimit == 200)
        let long = String(repeating: "abcdefghij", count: 30)
        #expect(Anomaly.rawText(long) == String(long.prefix(200)))
        let exactly = String(repeating: "é", count: 200)          // 400 UTF-8 bytes, 200 characters
        #expect(Anomaly.rawText(exactly) == exactly)
        // Decomposed characters: e + combining acute is one character of two scalars.
        let decomposed = String(repeating: "e\u{301}", count: 250)
        let cut = Anomaly.rawText(decomposed)
        #expect(cut.count == 200 && cut.unicodeScalars.count == 400 && cut.unicodeScalars.last == "\u{301}")
        // Family emoji: one character of seven scalars.
        let family = String(repeating: "👨‍👩‍👧‍👦", count: 201)
        #expect(Anomaly.rawText(family) == String(repeating: "👨‍👩‍👧‍👦", count: 200))
        // 196 letters, then an escape of 6 characters that does not fit: it is left out whole.
        let escaped = Anomaly.rawText(String(repeating: "a", count: 196) + "\u{1B}" + "bbbb")
        #expect(escaped == String(repeating: "a", count: 196))
        let fits = Anomaly.rawText(String(repeating: "a", count: 194) + "\u{1B}" + "bbbb")
        #expect(fits == String(repeating: "a", count: 194) + "\\u{1B}" && fits.count == 200)
        let row = Anomaly(sourceFile: "x", severity: .info, code: "I_X", message: "m", raw: long)
        #expect(row.raw?.count == 200)
    }
}
