"""Spark: mapInArrow and the Arrow UDFs on a local two-core session (one JVM for all)."""

import os
import sys

import pytest

from conftest import field_of

INPUTS = ["https://a.example:8080/x?q=1#f", None, "nope", "HTTP://B.example/./y"]


@pytest.fixture(scope="module")
def spark():
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("rapidurl-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .getOrCreate()
    )
    yield session
    session.stop()


def per_url(field):
    return field_of(INPUTS, field)


def frame(spark):
    return spark.createDataFrame([(i, u) for i, u in enumerate(INPUTS)], "i int, u string").repartition(2)


def test_map_in_arrow(spark):
    from rapidurl.spark import parse_urls

    out = parse_urls(frame(spark), "u", ["hostname", "port"]).orderBy("i").collect()
    assert [r["hostname"] for r in out] == per_url("hostname")
    assert [r["port"] for r in out] == per_url("port")
    assert [r["error"] for r in out] == [None, None, "missing-scheme-non-relative-URL", None]
    assert [r["u"] for r in out] == INPUTS
    with pytest.raises(ValueError, match="overwrite"):
        parse_urls(frame(spark), "u", ["hostname"]).transform(lambda d: parse_urls(d, "u", ["hostname"]))


def test_arrow_udfs(spark):
    from rapidurl.spark import field_udf, url_udf

    df = frame(spark)
    out = df.select("i", url_udf(["host", "pathname"])("u").alias("p"), field_udf("hash")("u").alias("h"))
    rows = out.select("i", "p.*", "h").orderBy("i").collect()
    assert [r["host"] for r in rows] == per_url("host")
    assert [r["pathname"] for r in rows] == per_url("pathname")
    assert [r["h"] for r in rows] == per_url("hash")
    assert rows[2]["error"] == "missing-scheme-non-relative-URL"


def test_readme_example(spark):
    from readme import python_blocks

    blocks = [b for b in python_blocks() if "pyspark" in b]
    assert len(blocks) == 1
    # SparkSession.builder.getOrCreate() in the example returns this module's session.
    exec(compile(blocks[0], "README.md", "exec"), {})
