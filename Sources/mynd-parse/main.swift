import Foundation
import ToolSupport
// mynd-parse: being written; see its issue.
Diagnostics(tool: "mynd-parse", quiet: false).error("not implemented yet")
exit(69)
