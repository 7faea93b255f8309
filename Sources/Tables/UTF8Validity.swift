/// Whether bytes are well-formed UTF-8, for the text readers' choice of encoding (InteractLog logs, BrainTracker
/// results files): the standard library's validation (`UTF8Span`), which judges as `String(validating:as:)` does
/// (no overlong forms, no surrogates, nothing above U+10FFFF) without making the string.
public enum UTF8Validity {
    public static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let span = bytes.assumingMemoryBound(to: UInt8.self).span
        do {
            _ = try UTF8Span(validating: span)
            return true
        } catch {
            return false
        }
    }
}
