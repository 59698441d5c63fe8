"""Repository tools that are not part of the installed package: documentation rendering
(`render_docs`, with the markdown of the model cards in `model_cards` and of the ladder reports in
`ladder_tables`), the documentation site's hook (`docs_site`) and fitting the Hive alpha-beta
evaluation's weights (`tune_hive_evaluation`)."""
