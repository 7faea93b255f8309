import CHDF5

/// An open HDF5 identifier that is closed when the last reference goes away.
///
/// Files, groups, datasets, dataspaces, types and property lists all share this base; the close function is the
/// one the identifier's kind needs (`H5Fclose`, `H5Gclose`, …).
public class HDF5Object {
    /// The raw `hid_t`, for the other types of this module only.
    let id: hid_t
    private let close: (hid_t) -> herr_t
    /// The path of the object inside its file, for messages.
    public let path: String

    init(id: hid_t, path: String, close: @escaping (hid_t) -> herr_t) {
        self.id = id
        self.path = path
        self.close = close
    }

    deinit { _ = close(id) }
}

/// Makes sure HDF5 does not print its own error stack; errors are reported by ``HDF5Error``.
enum HDF5Library {
    static let silenced: Bool = {
        bb_H5_silence_errors()
        // Cap HDF5's internal free lists (1 MB per kind, 4 MB in all), which otherwise keep every block they
        // ever held, so memory stays bounded over long streamed outputs.
        _ = H5set_free_list_limits(4 << 20, 1 << 20, 4 << 20, 1 << 20, 4 << 20, 1 << 20)
        return true
    }()

    /// Checks an identifier returned by the library, turning a negative one into an error.
    static func check(_ id: hid_t, _ operation: @autoclosure () -> String) throws(HDF5Error) -> hid_t {
        if id < 0 { throw HDF5Error(operation(), detail: innermostMessage()) }
        return id
    }

    /// Checks a status returned by the library.
    static func check(_ status: herr_t, _ operation: @autoclosure () -> String) throws(HDF5Error) {
        if status < 0 { throw HDF5Error(operation(), detail: innermostMessage()) }
    }

    /// The description of the error stack's innermost entry, if any.
    static func innermostMessage() -> String? {
        final class Box { var message: String? }
        let box = Box()
        let stack = H5Eget_current_stack()
        defer { H5Eclose_stack(stack) }
        withUnsafeMutablePointer(to: &box.message) { pointer in
            _ = H5Ewalk2(stack, H5E_WALK_UPWARD, { _, entry, data in
                guard let entry, let description = entry.pointee.desc, let data else { return 0 }
                let slot = data.assumingMemoryBound(to: String?.self)
                if slot.pointee == nil { slot.pointee = String(cString: description) }
                return 0
            }, pointer)
        }
        return box.message
    }
}
