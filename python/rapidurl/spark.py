"""Spark: parse URL columns on the executors, one Arrow batch at a time.

Two ways, both Arrow end to end (no Python object per row):

- ``parse_urls(df, "u", ["hostname", "port"])`` adds one string column per field plus
  ``error`` to a DataFrame, through ``DataFrame.mapInArrow``;
- ``url_udf(["hostname", "port"])`` and ``field_udf("hostname")`` are Arrow UDFs
  (``pyspark.sql.functions.arrow_udf``, Spark 4.1+) for ``select``/``withColumn``: the first
  returns a struct (``.getField`` or ``select("p.*")``), the second one string.

The executors import ``rapidurl``: on a cluster, ship the wheel with the job (see
python/README.md, "Spark on a cluster").
"""

# No `from __future__ import annotations` here: Spark reads the UDFs' type hints
# (`pa.Array`) as objects.

from typing import Iterable, List, Optional

from . import DEFAULT_FIELDS

__all__ = ["parse_urls", "url_udf", "field_udf"]


def _names(fields: Optional[Iterable[str]]) -> List[str]:
    return list(DEFAULT_FIELDS if fields is None else fields)


def parse_urls(df, column: str, fields: Optional[Iterable[str]] = None, *, prefix: str = ""):
    """``df`` with ``{prefix}{field}`` columns for each field and ``{prefix}error`` added
    (strings; null where the URL in ``column`` is invalid or null)."""
    from pyspark.sql.types import StringType, StructField, StructType

    fields = _names(fields)
    added = [prefix + f for f in fields] + [prefix + "error"]
    clash = sorted(set(added) & set(df.columns))
    if clash:
        raise ValueError(f"parse_urls would overwrite column(s) {clash}; pass a prefix")
    schema = StructType(list(df.schema.fields) + [StructField(n, StringType(), True) for n in added])
    index = df.columns.index(column)

    def run(batches):
        import pyarrow as pa

        from rapidurl import parse_column

        for batch in batches:
            parsed = parse_column(batch.column(index), fields)
            arrays = list(batch.columns) + [c.combine_chunks() for c in parsed.columns]
            yield pa.RecordBatch.from_arrays(arrays, names=list(batch.schema.names) + added)

    return df.mapInArrow(run, schema)


def url_udf(fields: Optional[Iterable[str]] = None):
    """An Arrow UDF: a URL column in, a struct of the fields and ``error`` out."""
    import pyarrow as pa
    from pyspark.sql.functions import arrow_udf

    fields = _names(fields)
    ddl = ", ".join(f"`{n}` string" for n in fields + ["error"])

    @arrow_udf(ddl)
    def parse(urls: pa.Array) -> pa.Array:
        from rapidurl import parse_column

        table = parse_column(urls, fields).combine_chunks()
        return pa.StructArray.from_arrays(
            [c.chunk(0) if c.num_chunks else pa.array([], pa.string()) for c in table.columns],
            names=table.column_names,
        )

    return parse


def field_udf(field: str):
    """An Arrow UDF: a URL column in, the string ``field`` out (null where invalid)."""
    import pyarrow as pa
    from pyspark.sql.functions import arrow_udf

    @arrow_udf("string")
    def one(urls: pa.Array) -> pa.Array:
        from rapidurl import parse_column

        return parse_column(urls, [field])[field].combine_chunks()

    return one
