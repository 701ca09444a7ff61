"""The ``scored-pr`` command line: parser and commands, uncertainty options, stop signals, demo.
"""
