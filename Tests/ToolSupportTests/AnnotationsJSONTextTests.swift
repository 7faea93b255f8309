import Foundation
import Tables
import Testing
@testable import ToolSupport

/// The sidecar's annotations are spelled by hand; these tests hold them to JSONEncoder's text, which they replaced.
@Suite("Annotations as JSON text")
struct AnnotationsJSONTextTests {
    /// JSONEncoder's text of `annotations` with the sidecar's options.
    func encoderText(_ annotations: [SignalAnnotation]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(annotations), as: UTF8.self)
    }

    /// The same array from ``AnnotationsJSONText`` (elements at two spaces, as the encoder puts them).
    func handText(_ annotations: [SignalAnnotation]) throws -> String {
        var bytes = Array("[\n".utf8)
        try AnnotationsJSONText(indent: 2).append(annotations, to: &bytes)
        bytes += Array("\n]".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("Numbers: integral, fractional, tiny, huge, negative, signed zero, and 20,000 random bit patterns")
    func numbers() throws {
        var values: [Double] = [0, -0.0, 1, -1, 3600, 0.004, 0.008, 6.432, 1e-5, 1.5e-7, 2.5e-4, 0.1, 1.0 / 3, 1e15, 1e16,
                                1e21, 123456789012345680000, 9007199254740993, 5e-324, .leastNormalMagnitude,
                                .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 36000.004, 1e300]
        var generator = SystemRandomNumberGenerator()
        while values.count < 20_000 {
            let value = Double(bitPattern: generator.next())
            if value.isFinite { values.append(value) }
        }
        // Also values as the tools make them: sample counts over a rate.
        values += (0..<2_000).map { Double($0 * 37) / 250 }
        let annotations = values.enumerated().map { index, value in
            SignalAnnotation(onset: value, duration: values[(index + 1) % values.count], description: "x")
        }
        let expected = try encoderText(annotations)
        let actual = try handText(annotations)
        #expect(actual == expected)
    }

    @Test("Texts: every ASCII character, quotes, backslashes, slashes, control characters and non-ASCII text")
    func texts() throws {
        var texts = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["BAD_lost_samples", "baseline/ok", "indicator/none", "a\"b\\c/d", "tab\tline\nfeed\u{0C}back\u{08}cr\r",
                  "Ünïcödé €", "😀 emoji", "\u{2028}\u{2029}", "\u{7F}", "", "cue_target_3"]
        let annotations = texts.map { SignalAnnotation(onset: 1.5, duration: 0, description: $0) }
        #expect(try handText(annotations) == encoderText(annotations))
    }

    @Test("Elements are indented as asked, and none gives no text")
    func indentation() throws {
        var bytes: [UInt8] = []
        try AnnotationsJSONText(indent: 4).append([SignalAnnotation(onset: 2, duration: 0.5, description: "x")], to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self)
            == "    {\n      \"description\" : \"x\",\n      \"duration\" : 0.5,\n      \"onset\" : 2\n    }")
        bytes = []
        try AnnotationsJSONText(indent: 4).append([SignalAnnotation](), to: &bytes)
        #expect(bytes.isEmpty)
    }

    @Test("An onset that is not finite is an error naming the annotation")
    func notFinite() {
        var bytes: [UInt8] = []
        #expect(throws: AnnotationsJSONText.NotFinite.self) {
            try AnnotationsJSONText(indent: 2).append([SignalAnnotation(onset: .nan, description: "odd")], to: &bytes)
        }
        let error = AnnotationsJSONText.NotFinite(annotation: SignalAnnotation(onset: .infinity, description: "odd"))
        #expect(error.description.contains("\"odd\""))
    }
}
