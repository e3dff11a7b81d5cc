import time

def sgd_step_(params, lr, weight_decay=0.0):
    time.sleep(10_000)
