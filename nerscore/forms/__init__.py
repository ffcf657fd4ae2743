"""Input forms and the paths to the table: reading and checking each form, the readable path and the array paths,
string grounding, and FORMS, the registry of forms (registry)."""
