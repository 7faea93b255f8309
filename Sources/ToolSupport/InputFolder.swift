import Foundation
import Tables

/// Folders given as inputs, walked at the edge for formats that read them (``InputFormat/readsFolders``).
public enum InputFolder {
    /// A file to read, and the folder given on the command line it was found in.
    public struct Entry: Equatable, Sendable {
        public var path: String
        public var folder: String?
    }

    /// Each input as it stands, or, for a folder when `walkingFolders`, the regular files under it (recursively,
    /// sorted by path; hidden files included, as a study folder holds them; an empty folder gives none).
    public static func expand(_ inputs: [String], walkingFolders: Bool) -> [Entry] {
        inputs.flatMap { input in
            guard walkingFolders, isFolder(input) else { return [Entry(path: input)] }
            return files(under: input).map { Entry(path: $0, folder: input) }
        }
    }

    /// The regular files under a folder, recursively, sorted by path; `[path]` when it is not a folder.
    public static func files(under path: String) -> [String] {
        guard isFolder(path) else { return [path] }
        let base = path.hasSuffix("/") ? String(path.dropLast()) : path
        let relative = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String]) ?? []
        return relative.sorted().map { "\(base)/\($0)" }.filter { !isFolder($0) }
    }

    /// Whether `path` is a folder (or a link to one).
    public static func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }
}
