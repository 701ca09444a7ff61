# Golden values from R's pROC for tests/core/test_stats.py.
# Run from the repository root after `python tests/data/proc/make_datasets.py`:
#   Rscript tests/data/proc/generate.R
# Reads tests/data/proc/datasets.csv, writes tests/data/proc/golden.csv
# (columns: dataset, quantity, value; values printed with 17 significant digits).
suppressPackageStartupMessages(library(pROC))
d <- read.csv("tests/data/proc/datasets.csv", colClasses = c("character", "integer", "numeric", "numeric"))
names <- unique(d$dataset)
out <- data.frame(dataset = character(), quantity = character(), value = character())
put <- function(ds, q, v) {
  out[nrow(out) + 1, ] <<- list(ds, q, sprintf("%.17g", as.numeric(v)))
}
mkroc <- function(correct, score) {
  # direction "<": controls (0) have lower scores, so higher scores mean positive
  roc(response = correct, predictor = score, levels = c(0, 1), direction = "<", quiet = TRUE)
}
rocs <- list()
for (k in seq_along(names)) {
  nm <- names[k]
  s <- d[d$dataset == nm, ]
  ra <- mkroc(s$correct, s$a)
  rb <- mkroc(s$correct, s$b)
  rocs[[k]] <- ra
  put(nm, "auc_a", auc(ra))
  put(nm, "auc_b", auc(rb))
  put(nm, "var_a", var(ra, method = "delong"))
  ci <- ci.auc(ra, conf.level = 0.95, method = "delong")
  put(nm, "ci95_low_a", ci[1])
  put(nm, "ci95_high_a", ci[3])
  ci <- ci.auc(ra, conf.level = 0.9, method = "delong")
  put(nm, "ci90_low_a", ci[1])
  put(nm, "ci90_high_a", ci[3])
  t <- roc.test(ra, rb, paired = TRUE, method = "delong")
  put(nm, "paired_z", t$statistic)
  put(nm, "paired_p", t$p.value)
  for (f in c(0.2, 0.5)) {
    put(nm, sprintf("pauc_raw_%g_a", f),
        auc(ra, partial.auc = c(1, 1 - f), partial.auc.focus = "specificity", partial.auc.correct = FALSE))
    put(nm, sprintf("pauc_mcclish_%g_a", f),
        auc(ra, partial.auc = c(1, 1 - f), partial.auc.focus = "specificity", partial.auc.correct = TRUE))
  }
}
# unpaired: dataset k's score a against dataset k+1's score a
for (k in seq_len(length(names) - 1)) {
  t <- roc.test(rocs[[k]], rocs[[k + 1]], paired = FALSE, method = "delong")
  put(names[k], "unpaired_t", t$statistic)
  put(names[k], "unpaired_df", t$parameter)
  put(names[k], "unpaired_p", t$p.value)
}
write.csv(out, "tests/data/proc/golden.csv", row.names = FALSE, quote = FALSE)
cat("pROC", as.character(packageVersion("pROC")), "\n")
