import HDF5

/// Every attribute of a recording's `/Recording` and `/Paradigm` groups, in the order HDF5 lists them, with the
/// typed look-ups the reader needs (spec §3.1; all strings in Version 3, numbers included).
struct RecordingAttributes {
    /// The attributes as stored.
    var all: [StoredAttribute]

    /// Reads the attributes of `recording` and then of `paradigm`.
    init(recording: HDF5Group, paradigm: HDF5Group) throws {
        all = []
        for (group, object) in [("/Recording", recording), ("/Paradigm", paradigm)] {
            for attributeName in try object.attributeNames() {
                all.append(StoredAttribute(group: group, name: attributeName,
                                           value: try object.attributeOfAnyCharset(attributeName)))
            }
        }
    }

    /// The first attribute `name` of `group` (`/Recording` or `/Paradigm`).
    func attribute(_ group: String, _ name: String) -> StoredAttribute? {
        all.first { $0.group == group && $0.name == name }
    }

    /// A `/Recording` attribute as text.
    func text(_ name: String) -> String? { attribute("/Recording", name)?.value.stringValue }

    /// An attribute as a number, stored as one or as text.
    func number(_ group: String, _ name: String) -> Double? {
        guard let value = attribute(group, name)?.value else { return nil }
        if let number = value.doubleValue { return number }
        return value.stringValue.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// An attribute as a whole number (nil when fractional or beyond ±10^15).
    func integer(_ group: String, _ name: String) -> Int? {
        number(group, name).flatMap { $0 == $0.rounded() && abs($0) < 1e15 ? Int($0) : nil }
    }
}
