import Foundation
import Tables
import Testing

/// The JSON BrainBatch writes (provenance, sidecars, codebooks) against the text JSONEncoder gives for the same
/// values with the options it replaced, and read back by JSONDecoder.
@Suite("JSON text")
struct JSONTextTests {
    /// A value of most kinds (null: below), nested, with empty containers, keys that sort differently by case and
    /// punctuation, and texts that need escapes.
    struct Sample: Encodable {
        var tool = "bt-decode"
        var size = 8_991_420
        var scaling_nv_per_count = 381.48136844996486
        var ratio = 0.1
        var tiny = 1e-7
        var negative = -2.5
        var flag = true
        var empty_list: [Int] = []
        var empty_object: [String: Int] = [:]
        var inputs = [["path": "a b/c\"d\\e\u{1}\ttab", "sha256": "00ff"], ["path": "Ünï😀", "sha256": ""]]
        var nested = ["Zeta": [1, 2], "alpha": [], "a_b": [3], "aB": [4]]

        var json: JSON {
            [
                "tool": .string(tool), "size": JSON(size), "scaling_nv_per_count": .number(scaling_nv_per_count),
                "ratio": .number(ratio), "tiny": .number(tiny), "negative": .number(negative), "flag": .bool(flag),
                "empty_list": [], "empty_object": [:],
                "inputs": .array(inputs.map { .object($0.mapValues { .string($0) }) }),
                "nested": .object(nested.mapValues { .array($0.map { JSON($0) }) }),
            ]
        }
    }

    @Test("The same text as JSONEncoder's (pretty, sorted keys, slashes unescaped), and JSONDecoder reads it back")
    func sameAsEncoder() throws {
        let sample = Sample()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let expected = String(decoding: try encoder.encode(sample), as: UTF8.self) + "\n"
        let written = JSONText.document(sample.json)
        #expect(String(decoding: written, as: UTF8.self) == expected)
        #expect(try JSONDecoder().decode(JSON.self, from: Data(written)) == sample.json)
    }

    @Test("Keys in code-point order; null, and a number JSON cannot hold as null")
    func orderAndNonFinite() {
        let text = String(decoding: JSONText.document(["b": 1, "B": 2, "_": .null, "a_b": .number(.nan), "ab": .number(.infinity)]),
                          as: UTF8.self)
        #expect(text == "{\n  \"B\" : 2,\n  \"_\" : null,\n  \"a_b\" : null,\n  \"ab\" : null,\n  \"b\" : 1\n}\n")
    }
}
