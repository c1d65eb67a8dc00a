"""Evaluation cases (``cases``) and converters for public data sets (``convert``)."""
