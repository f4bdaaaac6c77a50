"""Text handling shared by the write and read paths: language, normalisation, keywords, token counts."""
