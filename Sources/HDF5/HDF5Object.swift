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

/// Makes sure HDF5 does not print its own error stack (errors are reported by ``HDF5Error``) and does not run
/// its exit handler.
public enum HDF5Library {
    static let silenced: Bool = {
        // No clean-up of HDF5 at exit: every file is closed by its owner before it is committed, and after a
        // failed write (a full disk) HDF5 keeps objects whose close failed, which its exit handler then closes
        // against a file already torn down (a segfault in H5SL_search after the error line). Must come first.
        _ = H5dont_atexit()
        bb_H5_silence_errors()
        // Cap HDF5's internal free lists (1 MB per kind, 4 MB in all), which otherwise keep every block they
        // ever held, so memory stays bounded over long streamed outputs.
        _ = H5set_free_list_limits(4 << 20, 1 << 20, 4 << 20, 1 << 20, 4 << 20, 1 << 20)
        return true
    }()

    /// Stops HDF5 printing its error stack on the calling thread. The Debian library is built thread-safe, where
    /// each thread has its own error stack and printing setting: a thread that writes (a background table writer)
    /// calls this first, else a failure there prints HDF5's 40-line trace on stderr.
    public static func silenceErrorsOnThisThread() {
        _ = silenced
        bb_H5_silence_errors_on_this_thread()
    }

    /// Checks an identifier returned by the library, turning a negative one into an error.
    static func check(_ id: hid_t, _ operation: @autoclosure () -> String) throws(HDF5Error) -> hid_t {
        if id < 0 { throw failure(operation()) }
        return id
    }

    /// Checks a status returned by the library.
    static func check(_ status: herr_t, _ operation: @autoclosure () -> String) throws(HDF5Error) {
        if status < 0 { throw failure(operation()) }
    }

    /// The error for a failed call: the innermost message of the error stack, and the system's error number if a
    /// message of the stack gives one.
    static func failure(_ operation: String) -> HDF5Error {
        let messages = stackMessages()
        return HDF5Error(operation, detail: messages.first, systemError: messages.lazy.compactMap(systemError).first)
    }

    /// The description of the error stack's innermost entry, if any.
    static func innermostMessage() -> String? { stackMessages().first }

    /// The `errno = N` of an HDF5 message (its low-level file drivers write one).
    static func systemError(in message: String) -> Int32? {
        let marker = Array("errno = ".utf8), bytes = Array(message.utf8)
        guard bytes.count >= marker.count,
              let start = (0...(bytes.count - marker.count)).first(where: { bytes[$0..<($0 + marker.count)].elementsEqual(marker) })
        else { return nil }
        let digits = bytes[(start + marker.count)...].prefix(while: { $0 >= 48 && $0 <= 57 })
        return Int32(String(decoding: digits, as: UTF8.self))
    }

    /// The descriptions of the current error stack's entries, innermost first.
    static func stackMessages() -> [String] {
        final class Box { var messages: [String] = [] }
        let box = Box()
        let stack = H5Eget_current_stack()
        defer { H5Eclose_stack(stack) }
        _ = H5Ewalk2(stack, H5E_WALK_UPWARD, { _, entry, data in
            guard let entry, let description = entry.pointee.desc, let data else { return 0 }
            Unmanaged<Box>.fromOpaque(data).takeUnretainedValue().messages.append(String(cString: description))
            return 0
        }, Unmanaged.passUnretained(box).toOpaque())
        return box.messages
    }
}
