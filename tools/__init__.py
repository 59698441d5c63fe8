"""Repository tools that are not part of the installed package: documentation rendering
(`render_docs`) and fitting the Hive alpha-beta evaluation's weights (`tune_hive_evaluation`)."""
