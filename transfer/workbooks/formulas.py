"""A cell's formula whose value the file does not hold (a program that saves no cached value wrote it):
simple arithmetic on numbers (=30+15, =(12,5*2)-3) is computed here, safely, by walking its syntax tree;
any other formula (a reference, a function) is kept as written so that the reader refuses the cell that
needs it, by name. Nothing is ever evaluated beyond + - * / on numbers."""
import ast
import re
from decimal import Decimal, DivisionByZero, InvalidOperation, localcontext

MAX_LENGTH = 120
ARITHMETIC = re.compile(r"^[\d\s.,+\-*/()]+$")
OPERATORS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
             ast.Div: lambda a, b: a / b}


def written(formula):
    """The formula as the spreadsheet shows it: "=30+15" (OpenDocument's "of:=30+15" too)."""
    text = str(formula).strip()
    if text.startswith("of:"):
        text = text[3:]
    return text if text.startswith("=") else f"={text}"


def evaluate(formula):
    """The number a simple arithmetic formula gives, or None when it is not one (or divides by zero)."""
    body = written(formula)[1:].strip()
    if not body or len(body) > MAX_LENGTH or not ARITHMETIC.match(body):
        return None
    if "," in body and "." not in body:
        body = body.replace(",", ".")      # a decimal comma, as an Italian spreadsheet writes it
    try:
        tree = ast.parse(body, mode="eval")
    except (SyntaxError, ValueError):
        return None
    try:
        with localcontext() as context:
            context.prec = 28
            context.traps[DivisionByZero] = True
            return _value(tree.body)
    except (ValueError, InvalidOperation, DivisionByZero, ZeroDivisionError):
        return None


def _value(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return Decimal(str(node.value))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        value = _value(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
        return OPERATORS[type(node.op)](_value(node.left), _value(node.right))
    raise ValueError("not simple arithmetic")
