"""Readers of labelled score files shared by the command line and :mod:`scored_pr.trec`.
"""
