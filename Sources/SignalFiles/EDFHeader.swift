import Tables

/// The header of an EDF+ or BDF+ file: 256 bytes, then 256 per signal, every field ASCII, left-aligned and padded
/// with spaces (EDF spec, "The header record"; EDF+ spec §2.1; BDF as EDF with a 0xFF "BIOSEMI" version field and
/// 24-bit samples). The annotation signal is the last.
struct EDFHeader {
    /// One stored signal (a channel, or the annotation signal).
    struct Signal {
        var label: String
        var transducer: String
        var unit: String
        var physicalMinimum: Int
        var physicalMaximum: Int
        var digitalMinimum: Int
        var digitalMaximum: Int
        var prefiltering: String
        var samplesPerRecord: Int
    }

    var kind: SignalFileKind
    var start: SignalStart?
    var equipment: String
    var recordCount: Int
    /// Seconds per data record, as its 8-character field writes it.
    var recordDuration: Double
    var signals: [Signal]

    static let months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]

    /// The header bytes: `256 × (signals + 1)`.
    var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 * (signals.count + 1))
        if kind == .bdf {
            out.append(0xFF)
            out += field("BIOSEMI", 7)
        } else {
            out += field("0", 8)
        }
        // EDF+ local patient identification: code, sex, birthdate, name; all unknown.
        out += field("X X X X", 80)
        let equipmentWord = Self.word(equipment.isEmpty ? "X" : equipment)
        let startdate: String
        if let start, (1985...2084).contains(start.year), (1...12).contains(start.month) {
            startdate = "Startdate " + pad2(start.day) + "-" + Self.months[start.month - 1] + "-" + String(start.year)
        } else {
            startdate = "Startdate X"
        }
        out += field(startdate + " X X " + equipmentWord, 80)
        if let start, (1985...2084).contains(start.year) {
            out += field(pad2(start.day) + "." + pad2(start.month) + "." + pad2(start.year % 100), 8)
            out += field(pad2(start.hour) + "." + pad2(start.minute) + "." + pad2(Int(start.second)), 8)
        } else {
            // EDF+: an unknown date is written as 01.01.85 (with "Startdate X" above).
            out += field("01.01.85", 8)
            out += field("00.00.00", 8)
        }
        out += field(String(256 * (signals.count + 1)), 8)
        out += field(kind == .bdf ? "BDF+C" : "EDF+C", 44)
        out += field(String(recordCount), 8)
        out += field(formatNumber(recordDuration, maxFractionDigits: 6), 8)
        out += field(String(signals.count), 4)
        for signal in signals { out += field(signal.label, 16) }
        for signal in signals { out += field(signal.transducer, 80) }
        for signal in signals { out += field(signal.unit, 8) }
        for signal in signals { out += field(String(signal.physicalMinimum), 8) }
        for signal in signals { out += field(String(signal.physicalMaximum), 8) }
        for signal in signals { out += field(String(signal.digitalMinimum), 8) }
        for signal in signals { out += field(String(signal.digitalMaximum), 8) }
        for signal in signals { out += field(signal.prefiltering, 80) }
        for signal in signals { out += field(String(signal.samplesPerRecord), 8) }
        for _ in signals { out += field("", 32) }
        return out
    }

    /// `text` as a field of `width` bytes: printable ASCII only (anything else becomes `_`), cut at the width,
    /// padded with spaces.
    func field(_ text: String, _ width: Int) -> [UInt8] {
        var bytes = text.unicodeScalars.prefix(width).map { $0.value >= 32 && $0.value < 127 ? UInt8($0.value) : UInt8(ascii: "_") }
        bytes += [UInt8](repeating: 0x20, count: width - bytes.count)
        return bytes
    }

    /// A subfield of EDF+'s identification fields: no spaces (they separate subfields).
    static func word(_ text: String) -> String {
        text.replacingSpaces()
    }

    private func pad2(_ value: Int) -> String {
        value < 10 ? "0" + String(value) : String(value % 100)
    }
}

extension String {
    func replacingSpaces() -> String { String(map { $0 == " " ? "_" : $0 }) }
}
