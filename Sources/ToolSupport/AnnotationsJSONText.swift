import Tables

/// The elements of a signal sidecar's `annotations` array as pretty-printed JSON, written straight into bytes.
///
/// The text is the one `JSONEncoder` gives with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`, which a
/// test checks value by value: each annotation is an object of ``Tables/JSONText`` with its keys `description`,
/// `duration`, `onset` in order. Written a group at a time by the caller, because the encoder took a tenth of a
/// 1-hour capture's export for its thousand annotations, and one ``Tables/JSON`` value for them all would hold a
/// faulty 10-hour capture's 40 MB of annotations twice; an annotation whose time is not finite is an error here
/// (``Tables/JSONText`` would write `null`).
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
        var first = true
        for annotation in annotations {
            guard annotation.onset.isFinite, annotation.duration.isFinite else { throw NotFinite(annotation: annotation) }
            if !first { JSONText.appendSeparator(to: &bytes) }
            first = false
            JSONText.appendSpaces(indent, to: &bytes)
            // The keys in their sorted order, without a dictionary per annotation.
            JSONText.appendObject([("description", .string(annotation.description)),
                                   ("duration", .number(annotation.duration)),
                                   ("onset", .number(annotation.onset))], indent: indent, to: &bytes)
        }
    }
}
