# Golden values from R's pROC (1.18) for the degenerate and small random datasets
# of tests/core/test_stats.py. Run from the repository root after
# `python tests/data/proc/make_edge_datasets.py`:
#   Rscript tests/data/proc/edge_golden.R
# Reads tests/data/proc/edge_datasets.csv, writes tests/data/proc/edge_golden.csv
# (columns: dataset, quantity, value; 17 significant digits; "NaN", "Inf",
# "-Inf" as R prints them; "ERROR" where pROC stops with an error).
suppressPackageStartupMessages(library(pROC))
d <- read.csv("tests/data/proc/edge_datasets.csv", colClasses = c("character", "integer", "numeric", "numeric"))
names <- unique(d$dataset)
out <- data.frame(dataset = character(), quantity = character(), value = character())
fmt <- function(v) {
  v <- as.numeric(v)
  if (is.nan(v)) "NaN" else if (is.infinite(v)) (if (v > 0) "Inf" else "-Inf") else sprintf("%.17g", v)
}
put <- function(ds, q, v) {
  out[nrow(out) + 1, ] <<- list(ds, q, v)
}
mkroc <- function(correct, score) {
  roc(response = correct, predictor = score, levels = c(0, 1), direction = "<", quiet = TRUE)
}
# pROC warns about AUC == 1 and about curves that look paired; the values are what we record
quietly <- function(expr) tryCatch(suppressWarnings(expr), error = function(e) NULL)
rocs_a <- list()
rocs_b <- list()
for (k in seq_along(names)) {
  nm <- names[k]
  s <- d[d$dataset == nm, ]
  ra <- mkroc(s$correct, s$a)
  rb <- mkroc(s$correct, s$b)
  rocs_a[[k]] <- ra
  rocs_b[[k]] <- rb
  put(nm, "auc_a", fmt(auc(ra)))
  put(nm, "auc_b", fmt(auc(rb)))
  v <- quietly(var(ra, method = "delong"))
  put(nm, "var_a", if (is.null(v)) "ERROR" else fmt(v))
  t <- quietly(roc.test(ra, rb, paired = TRUE, method = "delong"))
  if (is.null(t)) {
    for (q in c("paired_z", "paired_p", "paired_low", "paired_high")) put(nm, q, "ERROR")
  } else {
    put(nm, "paired_z", fmt(t$statistic))
    put(nm, "paired_p", fmt(t$p.value))
    put(nm, "paired_low", fmt(t$conf.int[1]))
    put(nm, "paired_high", fmt(t$conf.int[2]))
  }
}
# unpaired: dataset k's score a against dataset k+1's score b
for (k in seq_len(length(names) - 1)) {
  t <- quietly(roc.test(rocs_a[[k]], rocs_b[[k + 1]], paired = FALSE, method = "delong"))
  if (is.null(t)) {
    for (q in c("unpaired_t", "unpaired_df", "unpaired_p")) put(names[k], q, "ERROR")
  } else {
    put(names[k], "unpaired_t", fmt(t$statistic))
    put(names[k], "unpaired_df", fmt(t$parameter))
    put(names[k], "unpaired_p", fmt(t$p.value))
  }
}
write.csv(out, "tests/data/proc/edge_golden.csv", row.names = FALSE, quote = FALSE)
cat("pROC", as.character(packageVersion("pROC")), "\n")
