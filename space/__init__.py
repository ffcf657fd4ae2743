"""The Space's modules, beside the page (app.py, its layout and events). Bottom to top, each importing only those
above it in this list (and the package `nerscore`, which computes everything shown):

- `caps`: every cap and limit, the one place (tests patch them here);
- `texts`: the page's words: the task control's choices, the editor's labels, the examples, the explanations;
- `parsing`: the input read by the package's readers within the caps, `InputProblem` naming the line;
- `scoring`: the numbers, through the package, and its errors in the page's words;
- `writing`: tokens, entity texts and numbers as the page writes them;
- `colours`: the colours of the tables, the drawings and the pictures;
- `frames`: the tables (pandas);
- `markup`: the highlighted sentences and documents (HTML);
- `pictures`: how a picture is drawn (matplotlib, a figure of its own on Agg), encoded and kept, its fonts;
- `figures`: the pictures (the Agreement task's is `agreement`'s);
- `answers`: what each task answers, the `/evaluate`, `/compare` and `/spans` endpoints among them;
- `archives`: an uploaded ZIP archive of annotators' files (BRAT folders, doccano's export) unpacked within the caps
  and read as the command line reads its paths;
- `agreement`: the Agreement task (annotators' CoNLL columns, JSON lines of spans, a Label Studio export, or an
  archive), the `/agreement` endpoint;
- `lanes`: which requests run at once, by their size (it imports `caps` alone), and the page's answers run in them;
- `turns`: which answer the page keeps: a visitor's actions in turn, an answer overtaken by a newer action's left
  out (it imports nothing of the Space);
- `page_events`: what the page's events answer (app.py wires them), in the two steps the page shows.

Nothing here but `page_events` imports gradio (so the other modules are tested without it), and nothing imports
`ner_semeval` (the evaluate module), so the page starts without evaluate.
"""
