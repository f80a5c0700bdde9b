"""Documents and stores: every JSON document that crosses a boundary, loaded, validated and written
(:mod:`.json_io`), a scenario prepared for a run (:mod:`.scenarios`), fixture files and traces in canonical form
(:mod:`.fixture_files`), the checks beyond a schema (:mod:`.semantics`), expected failures and the quarantine
(:mod:`.expectations`), and where a run keeps what it finds: the example database and the failures folder
(:mod:`.failure_store`). Reports are :mod:`conformance.reports`.
"""
