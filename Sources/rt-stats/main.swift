import Foundation
import ToolSupport
// rt-stats: being written; see its issue.
Diagnostics(tool: "rt-stats", quiet: false).error("not implemented yet")
exit(69)
