# bash completion for the otpu programs: lens, otpu-lens, otpu-lock, otpu-regress,
# otpu-xdma-emu, otpu-prebuild, otpu-mkcheckpoint (docs/cli.md "Help and completion").
#
# The programs answer for themselves: `PROG --complete WORD...` prints the candidates for the
# last WORD (commands, options, option values, workload names from `list`, configurations),
# read from the same option descriptions the program parses with, so this file never lists an
# option and cannot drift. A candidate line "@files", "@dirs" or "@command" asks the shell to
# complete a file name, a directory or a command name instead.
#
# Installed as share/bash-completion/completions/PROG (each sources this file), or source it
# from ~/.bashrc.

_otpu_complete() {
  local prog=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
  local -a words=() replies=()
  local i w glue=0
  # bash splits --name=value at '=' (COMP_WORDBREAKS): join it back into one word.
  for ((i = 1; i <= COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    local n=${#words[@]}
    if ((n > 0)) && [[ $w == "=" && ${words[n-1]} == --* && ${words[n-1]} != *=* ]]; then
      words[n-1]+="="
      glue=1
    elif ((n > 0 && glue)); then
      words[n-1]+=$w
      glue=0
    else
      words+=("$w")
      glue=0
    fi
  done
  mapfile -t replies < <("$prog" --complete "${words[@]}" 2>/dev/null)
  COMPREPLY=()
  case ${replies[0]} in
    @files) [[ $cur == "=" ]] && cur=""; mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            compopt -o filenames 2>/dev/null ;;
    @dirs) [[ $cur == "=" ]] && cur=""; mapfile -t COMPREPLY < <(compgen -d -- "$cur")
           compopt -o filenames 2>/dev/null ;;
    @command) mapfile -t COMPREPLY < <(compgen -c -- "$cur") ;;
    *)
      # For --name=VALUE bash replaces only what follows '=': offer the values alone.
      for i in "${replies[@]}"; do
        if [[ ${words[${#words[@]}-1]} == --*=* ]]; then COMPREPLY+=("${i#*=}"); else COMPREPLY+=("$i"); fi
      done
      ;;
  esac
}

complete -F _otpu_complete lens otpu-lens otpu-lock otpu-regress otpu-xdma-emu otpu-prebuild \
  otpu-mkcheckpoint
