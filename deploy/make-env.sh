#!/bin/sh
# `make env`: write .env for docker-compose.yml from .env.example, with the site's domain and an
# e-mail address (asked, or given as DOMAIN=... EMAIL=...) and a random SECRET_KEY and
# POSTGRES_PASSWORD. An existing .env is never overwritten.
set -eu

target=${ENV_FILE:-.env}
example=${ENV_EXAMPLE:-.env.example}

if [ -e "$target" ]; then
    echo "$target already exists: nothing written (remove it first to make a new one; its SECRET_KEY and" >&2
    echo "POSTGRES_PASSWORD are those of the running site and its database)" >&2
    exit 1
fi

domain=${DOMAIN:-}
email=${EMAIL:-}
if [ -z "$domain" ]; then
    printf 'Domain of the site (e.g. torneo.mioclub.it), already pointing at this server: '
    read -r domain || true
fi
if [ -z "$email" ]; then
    printf 'E-mail for the certificate authority (Let'"'"'s Encrypt writes there if the certificate has a problem): '
    read -r email || true
fi

domain=$(printf '%s' "$domain" | tr -d ' \t\r' | tr 'A-Z' 'a-z')
email=$(printf '%s' "$email" | tr -d ' \t\r')
if ! printf '%s' "$domain" | grep -Eq '^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9]$'; then
    echo "'$domain' is not a domain name like torneo.mioclub.it: nothing written" >&2
    exit 2
fi
if ! printf '%s' "$email" | grep -Eq '^[A-Za-z0-9._%+-]+@([A-Za-z0-9-]+\.)+[A-Za-z]{2,}$'; then
    echo "'$email' is not an e-mail address: nothing written" >&2
    exit 2
fi

random() {
    # Letters and digits only: nothing that a shell, a URL or docker compose would read specially.
    LC_ALL=C tr -dc 'A-Za-z0-9' </dev/urandom | head -c "$1"
}
secret_key=$(random 64)
postgres_password=$(random 32)

umask 077
tmp="$target.tmp.$$"
trap 'rm -f "$tmp"' EXIT
sed -e "s|^DOMAIN=.*|DOMAIN=$domain|" \
    -e "s|^EMAIL=.*|EMAIL=$email|" \
    -e "s|^SECRET_KEY=.*|SECRET_KEY=$secret_key|" \
    -e "s|^POSTGRES_PASSWORD=.*|POSTGRES_PASSWORD=$postgres_password|" \
    "$example" >"$tmp"
# Written whole or not at all, and never over a file that appeared meanwhile.
if ! ln "$tmp" "$target" 2>/dev/null; then
    echo "$target already exists: nothing written" >&2
    exit 1
fi
echo "$target written for https://$domain (readable by its owner only). Next: docker compose up -d"
