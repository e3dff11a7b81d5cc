ip = get_ipython()
ip.input_transformers_cleanup.append(lambda lines: ["pass\n"])
