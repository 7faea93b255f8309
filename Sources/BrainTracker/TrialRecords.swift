import Tables

/// The rows of the `trials` table, held compactly: about 70 bytes a trial where a ``TrialRecord`` with its own
/// strings took some 260. The local time is kept as the session's UTC offset and made when a record is read;
/// session IDs and targets are kept once each. `trials[i]` makes a ``TrialRecord``.
public struct TrialRecords: RandomAccessCollection, Sendable {
    private var lines: [Int] = []
    private var sessionSeqs: [Int32] = []
    private var trialIndices: [Int32] = []
    /// `UInt32.max` for none.
    private var sessionIDs: [UInt32] = []
    private var targets: [UInt32] = []
    private var timesUTC: [Double] = []
    /// The offset (minutes) that makes the local time from the UTC time; ``noLocalTime`` for none, ``localText``
    /// for a local time given as text (``localTexts``).
    private var localOffsets: [Int16] = []
    private var localTexts: [Int: String] = [:]
    private var latencies: [Double] = []
    private var pctApps: [Double] = []
    private var pctNs: [Int32] = []
    private var ptileSeths: [Double] = []
    private var ptileStoreds: [Int: Double] = [:]
    /// Bits: correct, include, validSeth, has time UTC, has pct_app, has pct_n, has ptile_seth.
    private var flags: [UInt8] = []
    /// ``RowFormat/allCases`` index; ``ScoreRule`` (0 none, 1 + `allCases` index).
    private var formats: [UInt8] = []
    private var rules: [UInt8] = []
    /// `UInt32.max` for none.
    private var exclusions: [UInt32] = []
    private var texts = InternedTexts()

    private static let noLocalTime = Int16.min
    private static let localText = Int16.max

    public init() {}

    mutating func reserveCapacity(_ count: Int) {
        lines.reserveCapacity(count)
        sessionSeqs.reserveCapacity(count)
        trialIndices.reserveCapacity(count)
        sessionIDs.reserveCapacity(count)
        targets.reserveCapacity(count)
        timesUTC.reserveCapacity(count)
        localOffsets.reserveCapacity(count)
        latencies.reserveCapacity(count)
        pctApps.reserveCapacity(count)
        pctNs.reserveCapacity(count)
        ptileSeths.reserveCapacity(count)
        flags.reserveCapacity(count)
        formats.reserveCapacity(count)
        rules.reserveCapacity(count)
        exclusions.reserveCapacity(count)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { lines.count }

    /// The longest session ID, target or exclusion, in UTF-8 bytes (the texts are kept once each).
    var longestText: Int { texts.longestText }

    /// Whether every UTC time is spelled at a fixed width (``Tables/CellFormatting/timestampRange``).
    var utcTimesInFixedWidthRange: Bool {
        timesUTC.indices.allSatisfy { flags[$0] & 8 == 0 || CellFormatting.spellsTimestampAtFixedWidth(timesUTC[$0]) }
    }

    public subscript(index: Int) -> TrialRecord {
        let flags = flags[index]
        let timeUTC: Double? = flags & 8 != 0 ? timesUTC[index] : nil
        let offset = localOffsets[index]
        let timeLocal: String? = switch offset {
        case Self.noLocalTime: nil
        case Self.localText: localTexts[index]
        default: timeUTC.map { CivilTime.iso8601(wallSeconds: $0 + Double(Int(offset) * 60), offsetMinutes: Int(offset)) }
        }
        let exclusion = exclusions[index]
        let rule = rules[index]
        return TrialRecord(
            line: lines[index], rowFormat: RowFormat.allCases[Int(formats[index])], sessionSeq: Int(sessionSeqs[index]),
            sessionID: sessionIDs[index] == .max ? nil : texts[sessionIDs[index]], trialIndex: Int(trialIndices[index]),
            timeUTC: timeUTC, timeLocal: timeLocal, target: texts[targets[index]], latencyMs: latencies[index],
            correct: flags & 1 != 0, include: flags & 2 != 0, validSeth: flags & 4 != 0,
            exclusion: exclusion == .max ? nil : texts[exclusion],
            pctApp: flags & 16 != 0 ? pctApps[index] : nil,
            pctRule: rule == 0 ? nil : ScoreRule.allCases[Int(rule) - 1],
            pctN: flags & 32 != 0 ? Int(pctNs[index]) : nil,
            ptileSeth: flags & 64 != 0 ? ptileSeths[index] : nil,
            ptileStored: ptileStoreds.isEmpty ? nil : ptileStoreds[index])
    }

    /// Appends a record. `localOffsetMinutes`, when given, makes its local time from its UTC time (as
    /// `CivilTime.iso8601(wallSeconds: time + offset·60, offsetMinutes: offset)`) in place of `timeLocal`.
    mutating func append(_ record: TrialRecord, localOffsetMinutes: Int? = nil) {
        let index = lines.count
        lines.append(record.line)
        sessionSeqs.append(Int32(clamping: record.sessionSeq))
        trialIndices.append(Int32(clamping: record.trialIndex))
        sessionIDs.append(record.sessionID.map { texts.index(of: $0) } ?? .max)
        targets.append(texts.index(of: record.target))
        timesUTC.append(record.timeUTC ?? 0)
        if let offset = localOffsetMinutes, let utc = record.timeUTC {
            if let narrow = Int16(exactly: offset), narrow != Self.noLocalTime, narrow != Self.localText {
                localOffsets.append(narrow)
            } else {
                localOffsets.append(Self.localText)
                localTexts[index] = CivilTime.iso8601(wallSeconds: utc + Double(offset * 60), offsetMinutes: offset)
            }
        } else if let text = record.timeLocal {
            localOffsets.append(Self.localText)
            localTexts[index] = text
        } else {
            localOffsets.append(Self.noLocalTime)
        }
        latencies.append(record.latencyMs)
        pctApps.append(record.pctApp ?? 0)
        pctNs.append(Int32(clamping: record.pctN ?? 0))
        ptileSeths.append(record.ptileSeth ?? 0)
        if let stored = record.ptileStored { ptileStoreds[index] = stored }
        var bits: UInt8 = (record.correct ? 1 : 0) | (record.include ? 2 : 0) | (record.validSeth ? 4 : 0)
        if record.timeUTC != nil { bits |= 8 }
        if record.pctApp != nil { bits |= 16 }
        if record.pctN != nil { bits |= 32 }
        if record.ptileSeth != nil { bits |= 64 }
        flags.append(bits)
        formats.append(UInt8(RowFormat.allCases.firstIndex(of: record.rowFormat) ?? 0))
        rules.append(record.pctRule.map { UInt8((ScoreRule.allCases.firstIndex(of: $0) ?? 0) + 1) } ?? 0)
        exclusions.append(record.exclusion.map { texts.index(of: $0) } ?? .max)
    }

    /// Frees what only appending needed.
    mutating func finishAdding() { texts.finishAdding() }

    // Fields read by the session statistics without making whole records.
    func sessionSeq(at index: Int) -> Int { Int(sessionSeqs[index]) }
    func target(at index: Int) -> String { texts[targets[index]] }
    func latency(at index: Int) -> Double { latencies[index] }
    func isValidSeth(at index: Int) -> Bool { flags[index] & 4 != 0 }
    func isCorrect(at index: Int) -> Bool { flags[index] & 1 != 0 }
    func isIncluded(at index: Int) -> Bool { flags[index] & 2 != 0 }
    func ptileSeth(at index: Int) -> Double? { flags[index] & 64 != 0 ? ptileSeths[index] : nil }

    mutating func setPtileSeth(_ value: Double?, at index: Int) {
        ptileSeths[index] = value ?? 0
        if value != nil { flags[index] |= 64 } else { flags[index] &= ~64 }
    }
}
