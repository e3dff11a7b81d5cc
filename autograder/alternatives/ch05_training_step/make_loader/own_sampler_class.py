# Correct, written differently: a batch sampler of its own, drawing each pass's order from a `random.Random(seed)`
# instance it owns (a new order on every pass, which the statement allows).
def make_loader(dataset, batch_size, *, shuffle, drop_last, seed, collate_fn=None):
    import random

    class Batches:
        def __init__(self):
            self.rng = random.Random(seed)

        def __iter__(self):
            order = list(range(len(dataset)))
            if shuffle:
                self.rng.shuffle(order)
            stop = len(order) - len(order) % batch_size if drop_last else len(order)
            for start in range(0, stop, batch_size):
                yield order[start:start + batch_size]

        def __len__(self):
            return len(dataset) // batch_size if drop_last else -(-len(dataset) // batch_size)

    return DataLoader(dataset, batch_sampler=Batches(), collate_fn=collate_fn)
