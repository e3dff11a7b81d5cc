# Canonical mistake: reports every parameter that requires grad, whether or not the loss reaches it.
# Hint: Reread the statement: the parameters whose `AccumulateGrad` node is reachable from the loss.
def reachable_params(loss, model):
    return [name for name, p in model.named_parameters() if p.requires_grad]
