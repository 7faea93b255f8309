import Tables

/// The elements of a signal sidecar's `annotations` array as pretty-printed JSON, written straight into bytes.
///
/// The text is the one `JSONEncoder` gives with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]` (keys in
/// order `description`, `duration`, `onset`; numbers and strings spelled by ``Tables/JSONText``), which a test
/// checks value by value. Written straight into bytes, a group at a time, because the encoder took a tenth of a
/// 1-hour capture's export for its thousand annotations, and a ``Tables/JSON`` per annotation would hold a
/// faulty 10-hour capture's 40 MB of annotations twice.
struct AnnotationsJSONText {
    /// Spaces before each element's braces (its keys get two more).
    var indent: Int

    /// A value JSON cannot hold (an onset or duration that is not finite).
    struct NotFinite: Error, CustomStringConvertible {
        var annotation: SignalAnnotation
        var description: String {
            "annotation \"\(annotation.description)\" has an onset or duration that is not finite "
                + "(\(annotation.onset), \(annotation.duration))"
        }
    }

    /// Appends the elements of `annotations` to `bytes`, separated by `,` and a line end, without the brackets
    /// around them and without a line end after the last.
    func append(_ annotations: some Collection<SignalAnnotation>, to bytes: inout [UInt8]) throws(NotFinite) {
        let outer = [UInt8](repeating: UInt8(ascii: " "), count: indent)
        let inner = outer + [UInt8(ascii: " "), UInt8(ascii: " ")]
        var first = true
        for annotation in annotations {
            guard annotation.onset.isFinite, annotation.duration.isFinite else { throw NotFinite(annotation: annotation) }
            if !first { bytes += [UInt8(ascii: ","), UInt8(ascii: "\n")] }
            first = false
            bytes += outer
            bytes += [UInt8(ascii: "{"), UInt8(ascii: "\n")]
            bytes += inner
            bytes += Self.descriptionKey
            JSONText.appendString(annotation.description, to: &bytes)
            bytes += [UInt8(ascii: ","), UInt8(ascii: "\n")]
            bytes += inner
            bytes += Self.durationKey
            JSONText.appendNumber(annotation.duration, to: &bytes)
            bytes += [UInt8(ascii: ","), UInt8(ascii: "\n")]
            bytes += inner
            bytes += Self.onsetKey
            JSONText.appendNumber(annotation.onset, to: &bytes)
            bytes += [UInt8(ascii: "\n")]
            bytes += outer
            bytes += [UInt8(ascii: "}")]
        }
    }

    private static let descriptionKey = Array("\"description\" : ".utf8)
    private static let durationKey = Array("\"duration\" : ".utf8)
    private static let onsetKey = Array("\"onset\" : ".utf8)
}
