/// A table of noise codes: one row per code, one column per frame (spec §3.1).
public struct NoiseCodeTable: Sendable, Equatable {
    /// The frame times in ms (the row after the comments), empty if the layout has none.
    public var frameTimesMs: [Double]
    /// The codes: `codes[i][f]` is code i's state at frame f.
    public var codes: [[UInt8]]

    public init(frameTimesMs: [Double], codes: [[UInt8]]) {
        self.frameTimesMs = frameTimesMs
        self.codes = codes
    }

    /// The number of frames per code.
    public var frameCount: Int { codes.first?.count ?? 0 }

    /// Reads the PMB `.txt` layout (`StimSeq.fromFile`): `#` comment lines, a row of frame times, then one row
    /// per code; values split on any whitespace; the block ends at two blank lines after the codes.
    public static func parsePMBText(_ text: String, sourceFile: String) throws(MindAffectError) -> NoiseCodeTable {
        var frameTimes: [Double]?
        var codes: [[UInt8]] = []
        var blankRun = 0
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: [" ", "\t", "\r"])
            if line.hasPrefix("#") { continue }
            if line.isEmpty {
                blankRun += 1
                if blankRun >= 2 && !codes.isEmpty { break }
                continue
            }
            blankRun = 0
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if frameTimes == nil {
                var times: [Double] = []
                for field in fields {
                    guard let value = Double(field) else {
                        throw .badCodeTable(file: sourceFile, line: offset + 1,
                                            message: "expected a row of frame times in ms, found \"\(field)\"")
                    }
                    times.append(value)
                }
                frameTimes = times
                continue
            }
            var row: [UInt8] = []
            for field in fields {
                guard let value = UInt8(field) else {
                    throw .badCodeTable(file: sourceFile, line: offset + 1,
                                        message: "expected a code state (0/1), found \"\(field)\"")
                }
                row.append(value)
            }
            if let width = codes.first?.count, width != row.count {
                throw .badCodeTable(file: sourceFile, line: offset + 1,
                                    message: "expected \(width) frames as in the first code row, found \(row.count)")
            }
            codes.append(row)
        }
        guard !codes.isEmpty else {
            throw .badCodeTable(file: sourceFile, line: 1, message: "expected frame times and code rows, found none")
        }
        if let times = frameTimes, times.count != codes[0].count {
            throw .badCodeTable(file: sourceFile, line: 1,
                                message: "expected \(codes[0].count) frame times (one per frame), found \(times.count)")
        }
        return NoiseCodeTable(frameTimesMs: frameTimes ?? [], codes: codes)
    }

    /// The code an object shows under the PMB mapping (objID k ≥ 1 shows code k−1), nil if none.
    public func code(forObject objectID: Int) -> [UInt8]? {
        objectID >= 1 && objectID <= codes.count ? codes[objectID - 1] : nil
    }

    /// The table in PMB's `.txt` layout (the layout ``parsePMBText(_:sourceFile:)`` reads): a `#stimTime` block of
    /// frame times in ms, then a `#stimSeq` block, one code per line, tab-separated.
    public func pmbText() -> String {
        var text = "# gold @ 60hz\n#stimTime: (1,\(frameCount))\n\n\n"
        text += frameTimesMs.map { String(Int($0)) }.joined(separator: "\t") + "\n"
        text += "#stimSeq : (\(codes.count),\(frameCount))\n\n\n"
        for code in codes { text += code.map(String.init).joined(separator: "\t") + "\n" }
        return text
    }
}
