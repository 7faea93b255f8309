# Reads every table of a BrainBatch output the way R users do and compares, value by value:
#   as.data.frame(rhdf5::h5read(h5, table))  against  read.csv(<folder>/<table>.csv)
# and checks that hdf5r reads every column of every table (empty tables included).
# Usage: Rscript check_readback.R OUT.h5 CSV_FOLDER; prints one line per table, "FAIL ..." lines on a mismatch.
suppressMessages({ library(rhdf5); library(hdf5r) })
args <- commandArgs(trailingOnly = TRUE)
h5 <- args[1]; folder <- args[2]
tables <- h5readAttributes(h5, "/")$tables
failures <- 0
fail <- function(...) { cat("FAIL", ..., "\n"); failures <<- failures + 1 }
same_missing <- function(a, b) identical(is.na(a), is.na(b))
for (table in tables) {
  a <- as.data.frame(h5read(h5, table), stringsAsFactors = FALSE)
  order <- as.character(h5readAttributes(h5, table)$columns)
  kinds <- sapply(order, function(column) h5readAttributes(h5, paste0(table, "/", column))$kind)
  # Text columns are read as text: read.csv would guess numbers for a text column whose every value looks
  # numeric (`ts_raw`, byte offsets in `location`); datapackage.json gives the types.
  classes <- ifelse(kinds %in% c("string", "timestamp", "timestamp_local"), "character", NA)
  b <- read.csv(file.path(folder, paste0(table, ".csv")), stringsAsFactors = FALSE, colClasses = classes)
  if (!identical(colnames(b), order)) fail(table, "CSV columns are not in table order")
  if (!setequal(colnames(a), order)) fail(table, "HDF5 columns differ:", setdiff(union(colnames(a), order), intersect(colnames(a), order)))
  if (nrow(a) != nrow(b)) fail(table, "rows:", nrow(a), "vs", nrow(b))
  if (nrow(b) > 0) for (column in order) {
    x <- a[[column]]; y <- b[[column]]
    kind <- kinds[[column]]
    if (!same_missing(x, y)) { fail(table, column, "missing values differ"); next }
    if (all(is.na(y))) next  # read.csv makes an all-NA column logical; the HDF5 column only has to be NA there
    if (kind == "bool") {
      if (!is.logical(x) || !is.logical(y)) fail(table, column, "booleans not logical:", class(x), class(y))
      else if (!identical(x, y)) fail(table, column, "booleans differ")
    } else if (kind %in% c("int32", "int64", "float64", "float32")) {
      if (!is.numeric(x) || !is.numeric(y)) { fail(table, column, "not numeric:", class(x), class(y)); next }
      ok <- !is.na(y)
      # float32 columns: CSV holds the shortest text that reads back to the same float32.
      tolerance <- if (kind == "float32") 2^-23 * abs(y[ok]) else 0
      if (any(abs(as.numeric(x[ok]) - as.numeric(y[ok])) > tolerance)) fail(table, column, "numbers differ")
    } else {
      if (!is.character(x) || !is.character(y)) { fail(table, column, "not text:", class(x), class(y)); next }
      if (!identical(enc2utf8(x), enc2utf8(y))) fail(table, column, "text differs")
    }
  }
  cat(table, nrow(a), "rows\n")
}
file <- H5File$new(h5, mode = "r")
for (table in tables) {
  group <- file[[table]]
  n <- h5attr(group, "n_rows")
  listed <- group$ls(index_type = h5const$H5_INDEX_CRT_ORDER, order = h5const$H5_ITER_INC)$name
  for (column in listed) {
    values <- group[[column]]$read()
    if (length(values) != n) fail(table, column, "hdf5r read", length(values), "of", n, "rows")
  }
  if (!identical(listed, as.character(h5attr(group, "columns")))) fail(table, "hdf5r lists columns out of table order")
}
file$close_all()
if (failures > 0) quit(status = 1)
