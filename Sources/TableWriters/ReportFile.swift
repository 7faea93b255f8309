import Crypto
import Foundation
import Hashing

/// An HTML report (`--report PATH.html`) as a file: how it is sealed when written and recognised later, so that a
/// run replaces an earlier report of a BrainBatch tool and nothing else (conventions §3.1).
///
/// A report carries its provenance inside (a visible section of the page); its last line is a comment naming the
/// tool and the SHA-256 of every byte before that line:
///
///     <!-- brainbatch-report tool=bt-decode sha256=4f… -->
///
/// A file is an earlier report, which a run may replace, only when that line is there, names a BrainBatch tool, and
/// the hash still matches (a page edited by hand, or saved again by a browser, is foreign and kept).
public enum ReportFile {
    /// The extensions a report path may have.
    public static let extensions: Set<String> = ["html", "htm"]

    private static let prefix = "<!-- brainbatch-report tool="

    /// The page's bytes followed by the seal line.
    public static func seal(_ html: String, tool: String) -> Data {
        var body = Data(html.utf8)
        if body.last != UInt8(ascii: "\n") { body.append(UInt8(ascii: "\n")) }
        let hash = SHA256.hash(data: body).hexString
        body.append(contentsOf: Data("\(prefix)\(tool) sha256=\(hash) -->\n".utf8))
        return body
    }

    /// The tool named by the seal of an unchanged report, or `nil` when `data` is not one (no seal, or content
    /// changed since it was sealed).
    public static func sealingTool(of data: Data) -> String? {
        guard data.last == UInt8(ascii: "\n") else { return nil }
        let withoutLast = data.dropLast()
        let lineStart = withoutLast.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? data.startIndex
        let line = String(decoding: data[lineStart..<withoutLast.endIndex], as: UTF8.self)
        guard line.hasPrefix(prefix), line.hasSuffix(" -->") else { return nil }
        let fields = line.dropFirst(prefix.count).dropLast(4).split(separator: " ")
        guard fields.count == 2, fields[1].hasPrefix("sha256=") else { return nil }
        let hash = SHA256.hash(data: data[data.startIndex..<lineStart]).hexString
        guard fields[1].dropFirst("sha256=".count) == hash else { return nil }
        return String(fields[0])
    }
}
