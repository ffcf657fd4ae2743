"""Files and people: CoNLL and JSON-lines readers, annotation tools' files, the text tables, conlleval's report,
files counted a chunk at a time, and what the command line prints."""
