import Foundation
@testable import HDF5
import Testing
import TestSupport

/// HDF5 failures become one line with the system's reason (issue 19: a full disk printed HDF5's 40-line trace and
/// named the hidden temporary file).
@Suite("HDF5 errors")
struct HDF5ErrorTests {
    @Test("A file that cannot be created: the error carries the system's errno, in one line")
    func createInMissingFolder() throws {
        let path = TestSupport.temporaryFolder().appendingPathComponent("absent/x.h5").path
        let error = #expect(throws: HDF5Error.self) { _ = try HDF5File.create(path: path) }
        #expect(error?.systemError == ENOENT)
        #expect(error?.description.contains("\n") == false)
    }

    @Test("The errno of HDF5's low-level messages is found; a message without one gives none")
    func errnoInMessages() {
        let message = "file write failed: time = Thu Nov 26 13:54:02 2026\n, filename = 'x', file descriptor = 3, errno = 28, error message = 'No space left on device'"
        #expect(HDF5Library.systemError(in: message) == 28)
        #expect(HDF5Library.systemError(in: "unable to truncate a file which is already open") == nil)
        #expect(HDF5Error("write x", detail: message).description.split(separator: "\n").count == 1)
    }

    @Test("Printing can be turned off on any thread (the background writer's)")
    func silenceOnAnotherThread() async {
        await Task.detached { HDF5Library.silenceErrorsOnThisThread() }.value
        HDF5Library.silenceErrorsOnThisThread()
    }
}
