"""Files and people: CoNLL and JSON-lines readers, annotation tools' files, the text tables, conlleval's report,
files counted a chunk at a time, what the command line prints, HIPE's shared-task files and tables, and the
annotators' files that agreement reads."""
