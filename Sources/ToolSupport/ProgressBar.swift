import Foundation

/// A one-line progress bar on stderr (files done, bytes, rate), shown only when stderr is a terminal, the run is
/// not quiet and the work has lasted over a second (conventions §4).
public final class ProgressBar {
    private let enabled: Bool
    private let totalFiles: Int
    private let totalBytes: Int
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false
    private var filesDone = 0
    private var bytesDone = 0

    public init(totalFiles: Int, totalBytes: Int, quiet: Bool) {
        self.totalFiles = totalFiles
        self.totalBytes = totalBytes
        enabled = !quiet && isatty(STDERR_FILENO) == 1
    }

    /// A bar over the given input files, their sizes read from the file system, links followed (unreadable
    /// ones and pipes count 0).
    public convenience init(inputs: [String], quiet: Bool) {
        let bytes = inputs.reduce(0) { total, path in
            var info = stat()
            return total + (stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : 0)
        }
        self.init(totalFiles: inputs.count, totalBytes: bytes, quiet: quiet)
    }

    /// Records progress within the current file.
    public func advance(bytes: Int) {
        bytesDone += bytes
        draw()
    }

    /// Records a finished file.
    public func finishFile() {
        filesDone += 1
        draw()
    }

    /// Clears the bar.
    public func finish() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }

    private func draw() {
        guard enabled else { return }
        let now = Date()
        let elapsed = now.timeIntervalSince(start)
        guard elapsed > 1, now.timeIntervalSince(lastDraw) > 0.1 else { return }
        lastDraw = now
        let fraction = totalBytes > 0 ? min(1, Double(bytesDone) / Double(totalBytes)) : 0
        let width = 24
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let rate = Double(bytesDone) / elapsed / 1e6
        let line = String(format: "\r[%@] %d/%d files, %.1f/%.1f MB, %.1f MB/s", bar, filesDone, totalFiles,
                          Double(bytesDone) / 1e6, Double(totalBytes) / 1e6, rate)
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }
}
